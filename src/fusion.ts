import { FluentToolBuilder } from './builder/FluentToolBuilder.js';
import { GroupedToolBuilder } from './builder/grouped/GroupedToolBuilder.js';
import type { Middleware } from './protocol/types.js';
import { StateMachineGate, type StateMachineGateOptions } from './fsm/StateMachineGate.js';
import type { FsmConfig, FsmFlatConfig } from './fsm/types.js';
import { PromptBuilder } from './prompts/PromptBuilder.js';
import { ToolRegistry } from './registry/ToolRegistry.js';
import { ResourceBuilder } from './resources/ResourceBuilder.js';
import { ResourceTemplateBuilder } from './resources/ResourceTemplateBuilder.js';
import { SkillBuilder } from './skills/SkillBuilder.js';

/** Options of {@link initFusion}. */
export interface FusionOptions<Ctx> {
  /** Middlewares every tool built from this `f` runs first (outermost). */
  middleware?: Middleware<Ctx>[];
}

/** The typed toolkit returned by {@link initFusion}. */
export interface Fusion<Ctx> {
  /** A read-only tool (`readOnlyHint: true`). */
  query(name: string): FluentToolBuilder<Ctx>;
  /** A tool that changes something but is not destructive. */
  action(name: string): FluentToolBuilder<Ctx>;
  /** A destructive tool (`destructiveHint: true` unless overridden). */
  mutation(name: string): FluentToolBuilder<Ctx>;
  /** A grouped tool: many actions behind one MCP tool, selected by a discriminator. */
  tool(name: string): GroupedToolBuilder<Ctx>;
  /** A prompt: a message template clients list and fetch with arguments. */
  prompt(name: string): PromptBuilder<Ctx>;
  /** A resource at one fixed URI. */
  resource(uri: string): ResourceBuilder<Ctx>;
  /** Resources addressed by an RFC 6570 level-1 URI template; the handler's variables are typed from it. */
  resourceTemplate<const T extends string>(uriTemplate: T): ResourceTemplateBuilder<Ctx, T>;
  /**
   * A skill of your own (SEP-2640): markdown a host loads on demand, served beside the generated skill of the
   * workflow. Its name must be a valid skill name (`bug-triage`).
   */
  skill(name: string): SkillBuilder;
  /** A new, empty registry typed with this context. */
  registry(): ToolRegistry<Ctx>;
  /**
   * A workflow gate over `config` (XState v5 when installed, the built-in engine otherwise); `options`
   * chooses the engine, the clock and XState `guards`. A flat machine's states are typed `string`.
   */
  fsm(config: FsmFlatConfig, options?: StateMachineGateOptions): StateMachineGate<string>;
  fsm(config: FsmConfig, options?: StateMachineGateOptions): StateMachineGate;
}

/**
 * Entry point: `const f = initFusion<AppContext>()` fixes the handler context type once for every tool.
 * @example
 * const f = initFusion<{ db: Db }>();
 * const list = f.query('sprints.list').describe('List sprints').stale().handle((_, ctx) => ctx.db.sprints());
 * @see docs/getting-started.md
 */
export function initFusion<Ctx = void>(options: FusionOptions<Ctx> = {}): Fusion<Ctx> {
  const base = Object.freeze([...(options.middleware ?? [])]);
  return Object.freeze({
    query: (name: string) => new FluentToolBuilder<Ctx>('query', name, base),
    action: (name: string) => new FluentToolBuilder<Ctx>('action', name, base),
    mutation: (name: string) => new FluentToolBuilder<Ctx>('mutation', name, base),
    tool: (name: string) => new GroupedToolBuilder<Ctx>(name, base),
    prompt: (name: string) => new PromptBuilder<Ctx>(name),
    resource: (uri: string) => new ResourceBuilder<Ctx>(uri),
    resourceTemplate: <const T extends string>(uriTemplate: T) => new ResourceTemplateBuilder<Ctx, T>(uriTemplate),
    skill: (name: string) => new SkillBuilder(name),
    registry: () => new ToolRegistry<Ctx>(),
    fsm: ((config: FsmConfig, options?: StateMachineGateOptions) =>
      new StateMachineGate(config, options)) as Fusion<Ctx>['fsm'],
  });
}
