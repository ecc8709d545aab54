import type { CallTracker } from './core/CallTracker.js';
import { nowOption } from '../_internal/clock.js';
import type { FusionTool } from '../protocol/types.js';
import type { FusionPrompt } from '../prompts/types.js';
import type { AttachOptions } from './core/options.js';
import type { ToolSwitch } from '../surface/ToolSwitch.js';
import type { FusionResource, FusionResourceTemplate } from '../resources/types.js';
import { compileSurface, type Surface } from '../surface/compileSurface.js';
import { groupingFor } from '../surface/groupedExposition.js';
import { ContentRuntime } from './content/ContentRuntime.js';
import { buildFeatures, type RuntimeFeatures } from './features.js';
import { ToolRuntime } from './tools/ToolRuntime.js';
import { systemResources } from './content/systemResources.js';
import type { WorkflowRuntime } from '../workflow/WorkflowRuntime.js';
import { TaskService } from './tasks/TaskService.js';
import { debugSink } from './core/debugSink.js';
import { RuntimeCore } from './core/RuntimeCore.js';
import { SessionHooks } from './core/SessionHooks.js';
import { buildToolParts } from './tools/buildToolParts.js';
import { stageList } from './stages/stageList.js';
import type { StageDefinition } from './stages/StageDefinition.js';
import type { RateLimiter } from './core/RateLimiter.js';
import { SkillSet } from '../skills/SkillSet.js';
import type { FusionSkill } from '../skills/types.js';

/** What a runtime is built from: a registry's items and its run-time switch. */
export interface RuntimeParts<Ctx> {
  readonly tools: readonly FusionTool<Ctx>[];
  readonly prompts: readonly FusionPrompt<Ctx>[];
  readonly resources: readonly FusionResource<Ctx>[];
  readonly resourceTemplates: readonly FusionResourceTemplate<Ctx>[];
  /** Hand-written skills (`f.skill()`); the workflow's skill is generated. */
  readonly skills?: readonly FusionSkill[] | undefined;
  readonly toolSwitch: ToolSwitch;
}

/** What a runtime holds besides its session hooks and tasks. */
type RuntimeFields<Ctx> = Pick<
  FusionRuntime<Ctx>,
  'options' | 'surface' | 'tools' | 'content' | 'workflow' | 'features' | 'skills'
>;

/** How long tasks aborted at a drain's deadline get to write their outcome. */
const TASK_OUTCOME_MS = 1_000;

/**
 * Everything an entry point needs to serve one registry under one options object, built once: the shared
 * core (log, running requests, session data), the tool runtime with its compiled surfaces per era
 * ({@link ToolRuntime}), the content runtime ({@link ContentRuntime}, with mcp-fusion's own resources), the
 * optional features (logging, subscriptions, request state, tracing), the workflow runtime and the session
 * hooks. `attachToServer`, the legacy sessions, the modern handler, stdio, the testing client and the CLI
 * all take this object.
 * @see docs/contributing.md
 */
export class FusionRuntime<Ctx = any> {
  readonly options: AttachOptions<Ctx>;
  /** The compiled tool surface (routes, wire definitions). */
  readonly surface: Surface;
  /** `tools/list` and `tools/call`: visibility and the compiled stages of each tool. */
  readonly tools: ToolRuntime<Ctx>;
  /** Prompts and resources (the registry's and mcp-fusion's own); undefined when there are none. */
  readonly content: ContentRuntime<Ctx> | undefined;
  /** The workflow runtime (FSM gate in both eras), when a gate is attached. */
  readonly workflow: WorkflowRuntime | undefined;
  readonly features: RuntimeFeatures;
  /** The workflow's generated skill and the registry's own (SEP-2640); undefined when there is none. */
  readonly skills: SkillSet | undefined;
  readonly #core: RuntimeCore<Ctx>;
  readonly #sessions: SessionHooks;
  readonly #limits: RateLimiter | undefined;
  #tasks: TaskService | undefined | null = null;

  private constructor(parts: RuntimeFields<Ctx>, core: RuntimeCore<Ctx>, sessions: SessionHooks, limits?: RateLimiter) {
    ({ options: this.options, surface: this.surface, tools: this.tools } = parts);
    ({ content: this.content, workflow: this.workflow, features: this.features, skills: this.skills } = parts);
    this.#core = core;
    this.#sessions = sessions;
    this.#limits = limits;
  }

  /**
   * Builds the runtime of `parts` under `options`, validating the options and the workflow bindings (the
   * `fsm` gate gets the surface's `.bindState()` tools bound). `stages` is the ordered stage list of every
   * path ({@link stageList} unless a test brings its own).
   */
  static build<Ctx>(
    parts: RuntimeParts<Ctx>,
    options: AttachOptions<Ctx>,
    stages: readonly StageDefinition[] = stageList,
  ): FusionRuntime<Ctx> {
    const core = new RuntimeCore<Ctx>(options);
    const { filter, nameStyle, toolExposition } = options;
    const surface = compileSurface(parts.tools, { filter, nameStyle, group: groupingFor(toolExposition) });
    const sessions = new SessionHooks(core);
    const toolParts = buildToolParts(core, surface, parts.toolSwitch, sessions);
    const tools = new ToolRuntime<Ctx>(core, toolParts, stages);
    const subscribable = options.resourceSubscriptions !== undefined && options.resourceSubscriptions !== false;
    const system = systemResources(toolParts, subscribable);
    const own = parts.prompts.length + parts.resources.length + parts.resourceTemplates.length > 0;
    const catalog = {
      prompts: parts.prompts,
      resources: parts.resources,
      resourceTemplates: [...parts.resourceTemplates, ...system],
    };
    const content =
      own || system.length > 0
        ? new ContentRuntime(catalog, options, { core, limits: toolParts.limits }, stages)
        : undefined;
    const features = buildFeatures(options, content);
    features.requestState.useLedger(core.ledger);
    const skillSet = new SkillSet(surface, toolParts.workflow?.gate, parts.skills ?? [], parts.toolSwitch);
    const skills = skillSet.any ? skillSet : undefined;
    return new FusionRuntime(
      { options, surface, tools, content, workflow: toolParts.workflow, features, skills },
      core,
      sessions,
      toolParts.limits,
    );
  }

  /** Runs task-supporting tools as tasks; undefined when no tool of the surface supports tasks. */
  get tasks(): TaskService | undefined {
    if (this.#tasks === null) {
      const { options, tools } = this;
      const tasked = this.surface.tools.some((t) => t.task !== undefined);
      const { ledger } = this.#core;
      this.#tasks = tasked
        ? new TaskService(tools, options.tasks, nowOption(options.clock), debugSink(options.debug), ledger)
        : undefined;
    }
    return this.#tasks;
  }

  /** Routes list_changed notifications of one session (legacy) or connection to its server. */
  registerSession(key: string, notifyToolsChanged: () => Promise<void>): void {
    this.#sessions.register(key, notifyToolsChanged);
  }

  /** Drops the per-session state of a closed session or connection. */
  releaseSession(key: string): void {
    this.#sessions.release(key);
  }

  /** Number of sessions holding in-memory state (for leak checks). */
  get sessionCount(): number {
    return this.#sessions.count;
  }

  /** Requests in flight now, every method (and the runs of tasks). */
  get inFlight(): number {
    return this.#core.tracker.inFlight;
  }

  /** The one count of requests in flight (the HTTP call budget reserves its tickets there). */
  get tracker(): CallTracker {
    return this.#core.tracker;
  }

  /**
   * Graceful shutdown: waits up to `deadlineMs` for the requests in flight (every method, tasks' runs, answers
   * being written), aborts the rest, then
   * lets the tasks write their outcomes to the store (at least a second more), so that none is left `working`.
   */
  async drain(deadlineMs: number): Promise<void> {
    // The deadlines' clock: monotonic time, or the `clock` option's (a test clock).
    const { tracker } = this.#core;
    const started = tracker.deadlines.clock.now();
    await tracker.drain(deadlineMs);
    const left = deadlineMs - (tracker.deadlines.clock.now() - started);
    if (this.#tasks) await this.#tasks.stored(Math.max(TASK_OUTCOME_MS, left));
  }

  /** Stops the timers of the workflow sessions and tasks; nothing can be notified afterwards. */
  dispose(): void {
    const workflow = this.workflow;
    workflow?.sessions.dispose();
    workflow?.handles.sessions.dispose();
    workflow?.handles.dispose();
    this.#core.sessionData.dispose?.();
    this.#limits?.dispose();
    this.#core.tracker.deadlines.dispose();
    this.#sessions.clear();
    if (this.#tasks !== null) this.#tasks?.dispose();
  }
}
