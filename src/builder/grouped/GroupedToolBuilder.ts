import { detachedExtra } from '../detachedExtra.js';
import type { z } from 'zod';
import { DefinitionError, FrozenBuilderError } from '../../errors/FusionError.js';
import type { WireTool } from '../../domain/types.js';
import type { FusionTool, Middleware, HandlerExtra, ToolResponse } from '../../protocol/types.js';
import { validateToolName } from '../validateToolName.js';
import { taskDeclaration, type TaskOptions } from '../taskDeclaration.js';
import { buildGroupedTool, describeGroupedTool, type BuiltGroupedTool, type GroupedState } from './buildGroupedTool.js';
import { addGroup, type ConfigureGroup } from './addGroup.js';
import { executeGrouped } from './executeGrouped.js';
import { isZodObject, toActionDef } from './toActionDef.js';
import type { ActionConfig, ActionMetadata, ToonOptions, ZodObjectSchema } from './types.js';

const DISCRIMINATOR = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;

/**
 * Many operations behind one MCP tool: a discriminator field (`action`) selects the operation,
 * `.group()` nests them (`users.create`). Every step changes this builder and returns it, so chained and
 * unchained calls are the same (`const t = createTool('ops'); t.action(a); t.action(b);`). Building
 * (`registry.register(t)`, `.buildToolDefinition()`, `.toFusionTools()`, `.execute()`) computes everything
 * once and freezes the builder: any later change throws a `FrozenBuilderError`.
 * @example
 * const platform = createTool<AppContext>('platform')
 *   .describe('Platform administration')
 *   .commonSchema(z.object({ workspaceId: z.string() }))
 *   .group('users', 'User accounts', (g) => g
 *     .action({ name: 'list', readOnly: true, handler: (input, ctx) => ctx.db.users(input.workspaceId) })
 *     .action({ name: 'delete', destructive: true, schema: z.object({ id: z.string() }), handler: … }));
 * @see docs/grouped-tools.md
 */
export class GroupedToolBuilder<Ctx = any, Common = Record<never, never>> {
  #state: GroupedState<Ctx>;
  #built: BuiltGroupedTool<Ctx> | undefined;

  /** @internal use `createTool(name)` or `f.tool(name)`. */
  constructor(name: string, middlewares: readonly Middleware<Ctx>[] = []) {
    validateToolName(name);
    this.#state = {
      name,
      description: undefined,
      discriminator: 'action',
      common: undefined,
      middlewares: Object.freeze([...middlewares]),
      tags: Object.freeze([]),
      toon: undefined,
      perActionSchemas: false,
      groups: Object.freeze([]),
      actions: Object.freeze([]),
      task: undefined,
    };
  }

  /** The tool's description; the action list and module summary are appended to it. */
  describe(description: string): GroupedToolBuilder<Ctx, Common> {
    return this.#next('change its description', { description });
  }

  /** The field that selects the action (`action` by default). */
  discriminator(field: string): GroupedToolBuilder<Ctx, Common> {
    if (typeof field !== 'string' || !DISCRIMINATOR.test(field)) {
      throw new DefinitionError(
        'TOOL_SCHEMA',
        `Tool "${this.#state.name}" has the discriminator ${JSON.stringify(field)}; use a field name such as "action" or "op".`,
        { tool: this.#state.name },
      );
    }
    return this.#next('change its discriminator', { discriminator: field });
  }

  /** Fields every action takes (merged into each action's schema); call it before the first action. */
  commonSchema<S extends ZodObjectSchema>(schema: S): GroupedToolBuilder<Ctx, z.output<S>> {
    const { name } = this.#state;
    if (!isZodObject(schema)) {
      throw new DefinitionError(
        'TOOL_SCHEMA',
        `Tool "${name}" got a common schema that is not a zod object; pass z.object({ … }).`,
        { tool: name },
      );
    }
    if (this.#state.actions.length > 0) {
      throw new DefinitionError(
        'TOOL_SCHEMA',
        `Tool "${name}" calls .commonSchema() after its first action; call it before .action() and .group() so that every handler's input includes the common fields.`,
        { tool: name },
      );
    }
    return this.#next('set its common schema', { common: schema });
  }

  /** A middleware for every action, outside the group middlewares (in the order added). */
  use(middleware: Middleware<Ctx>): GroupedToolBuilder<Ctx, Common> {
    if (typeof middleware !== 'function') {
      throw new DefinitionError(
        'TOOL_MIDDLEWARE',
        `Tool "${this.#state.name}" got ${String(middleware)} in .use(); pass a function (ctx, args, next, extra) => ….`,
        { tool: this.#state.name },
      );
    }
    return this.#next('add a middleware', { middlewares: Object.freeze([...this.#state.middlewares, middleware]) });
  }

  /** Tags of every action, for registry filters. */
  tags(...tags: string[]): GroupedToolBuilder<Ctx, Common> {
    return this.#next('add tags', { tags: Object.freeze([...this.#state.tags, ...tags]) });
  }

  /** Opt-in: describe the actions as a dense TOON table (needs `@toon-format/toon`). */
  toonDescription(options: ToonOptions = {}): GroupedToolBuilder<Ctx, Common> {
    return this.#next('enable TOON descriptions', { toon: Object.freeze({ ...options }) });
  }

  /**
   * Every action of this tool may run as a task that outlives its request (see `FluentToolBuilder.task`);
   * `tools/list` declares it on the tool once.
   * @see docs/tasks.md
   */
  task(options?: TaskOptions): GroupedToolBuilder<Ctx, Common> {
    return this.#next('make it a task tool', { task: taskDeclaration(options, `Tool "${this.#state.name}"`) });
  }

  /** Opt-in: list the input schema as a `oneOf` with one exact branch per action. */
  perActionSchemas(enabled = true): GroupedToolBuilder<Ctx, Common> {
    return this.#next('enable per-action schemas', { perActionSchemas: enabled });
  }

  /** Adds an ungrouped action (key = its name). A tool has either ungrouped actions or groups. */
  action<S extends ZodObjectSchema | undefined = undefined>(
    config: ActionConfig<Ctx, Common, S>,
  ): GroupedToolBuilder<Ctx, Common> {
    this.#assertOpen('add an action');
    const { name, groups, actions } = this.#state;
    const def = toActionDef(name, undefined, config);
    if (groups.length > 0) {
      throw new DefinitionError(
        'TOOL_ACTION',
        `Tool "${name}" mixes groups with the ungrouped action "${def.key}"; put it in a group (.group("…", g => g.action(…))) or declare no groups.`,
        { tool: name, action: def.key },
      );
    }
    this.#assertNewKey(def.key);
    return this.#next('add an action', { actions: Object.freeze([...actions, def]) });
  }

  /** Adds a group (module) of actions keyed `<group>.<action>`, with its own middlewares. */
  group(
    name: string,
    description: string | undefined,
    configure: ConfigureGroup<Ctx, Common>,
  ): GroupedToolBuilder<Ctx, Common>;
  group(name: string, configure: ConfigureGroup<Ctx, Common>): GroupedToolBuilder<Ctx, Common>;
  group(
    name: string,
    descriptionOrConfigure: string | undefined | ConfigureGroup<Ctx, Common>,
    maybeConfigure?: ConfigureGroup<Ctx, Common>,
  ): GroupedToolBuilder<Ctx, Common> {
    this.#assertOpen('add a group');
    const configure = typeof descriptionOrConfigure === 'function' ? descriptionOrConfigure : maybeConfigure;
    const description = typeof descriptionOrConfigure === 'function' ? undefined : descriptionOrConfigure;
    const patch = addGroup(this.#state, { name, description, configure }, (key) => this.#assertNewKey(key));
    return this.#next('add a group', patch);
  }

  /** The MCP tool definition under grouped exposition (built once, frozen). */
  buildToolDefinition(): WireTool {
    return this.#build().definition;
  }

  /** One built tool per action, named `<tool>.<key>`; what `registry.register(builder)` adds. */
  toFusionTools(): readonly FusionTool<Ctx>[] {
    return this.#build().tools;
  }

  /**
   * Runs one call as the grouped tool would: picks the action from the discriminator, validates the rest
   * strictly (common fields + the action's), then runs the compiled chain. Problems are `isError` results.
   */
  async execute(
    ctx: Ctx,
    args: Record<string, unknown> | undefined,
    extra: HandlerExtra = detachedExtra(),
  ): Promise<ToolResponse> {
    return executeGrouped(this.#build(), this.#state, { ctx, args, extra });
  }

  getName(): string {
    return this.#state.name;
  }

  getDiscriminator(): string {
    return this.#state.discriminator;
  }

  /** The action keys in declaration order (`users.create`, …). */
  getActionNames(): string[] {
    return this.#state.actions.map((a) => a.key);
  }

  /** Key, names, hints and required fields of every action; does not build the tool. */
  getActionMetadata(): ActionMetadata[] {
    const spec = this.#built?.spec ?? describeGroupedTool(this.#state, undefined);
    const common = spec.common?.required ?? [];
    return spec.actions.map((a) => ({
      key: a.key,
      canonicalName: `${spec.name}.${a.key}`,
      name: a.name,
      group: a.group,
      description: a.description,
      readOnly: a.readOnly,
      destructive: a.destructive,
      idempotent: a.idempotent,
      requiredFields: [...common, ...a.required],
    }));
  }

  /** True once built; a built builder refuses changes. */
  get built(): boolean {
    return this.#built !== undefined;
  }

  #build(): BuiltGroupedTool<Ctx> {
    this.#built ??= buildGroupedTool(this.#state);
    return this.#built;
  }

  #assertNewKey(key: string): void {
    if (this.#state.actions.some((a) => a.key === key)) {
      throw new DefinitionError(
        'TOOL_ACTION',
        `Tool "${this.#state.name}" declares the action "${key}" twice; remove one of them or rename it.`,
        { tool: this.#state.name, action: key },
      );
    }
  }

  #next(what: string, patch: Partial<GroupedState<Ctx>>): GroupedToolBuilder<Ctx, any> {
    this.#assertOpen(what);
    this.#state = { ...this.#state, ...patch };
    return this;
  }

  #assertOpen(what: string): void {
    if (this.#built === undefined) return;
    const { name } = this.#state;
    throw new FrozenBuilderError(
      'BUILDER_FROZEN',
      `Grouped tool "${name}" is already built (registered, listed or executed); cannot ${what}. Builders are frozen once built: declare everything before registry.register(), .buildToolDefinition(), .toFusionTools() or .execute(), or start a new builder with createTool("${name}").`,
      { tool: name },
    );
  }
}

/**
 * Starts a grouped tool: one MCP tool, many actions selected by a discriminator. Also `f.tool(name)`,
 * which adds `initFusion`'s middlewares and fixes the context type.
 * @see docs/grouped-tools.md
 */
export function createTool<Ctx = any>(name: string): GroupedToolBuilder<Ctx> {
  return new GroupedToolBuilder<Ctx>(name);
}
