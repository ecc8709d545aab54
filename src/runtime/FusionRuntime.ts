import type { FusionTool } from '../protocol/types.js';
import type { FusionPrompt } from '../prompts/types.js';
import type { AttachOptions } from './options.js';
import type { ToolSwitch } from '../surface/ToolSwitch.js';
import type { FusionResource, FusionResourceTemplate } from '../resources/types.js';
import type { Surface } from '../surface/compileSurface.js';
import { ContentPipeline } from './ContentPipeline.js';
import { buildFeatures, type PipelineFeatures } from './features.js';
import { RequestPipeline } from './RequestPipeline.js';
import { systemResources } from './systemResources.js';
import type { WorkflowRuntime } from '../workflow/WorkflowRuntime.js';
import { TaskService } from './TaskService.js';
import { debugSink } from './debugSink.js';

/** What a runtime is built from: a registry's items and its run-time switch. */
export interface RuntimeParts<Ctx> {
  readonly tools: readonly FusionTool<Ctx>[];
  readonly prompts: readonly FusionPrompt<Ctx>[];
  readonly resources: readonly FusionResource<Ctx>[];
  readonly resourceTemplates: readonly FusionResourceTemplate<Ctx>[];
  readonly toolSwitch: ToolSwitch;
}

/** How long tasks aborted at a drain's deadline get to write their outcome. */
const TASK_OUTCOME_MS = 1_000;

/**
 * Everything an entry point needs to serve one registry under one options object, built once: the tool
 * call path with its compiled surfaces per era ({@link RequestPipeline}), the prompt and resource path
 * ({@link ContentPipeline}, with mcp-fusion's own resources), the optional features (logging,
 * subscriptions, request state, tracing), the workflow runtime and the session hooks. `attachToServer`,
 * the legacy sessions, the modern handler, stdio, the testing client and the CLI all take this object.
 * @see docs/contributing.md
 */
export class FusionRuntime<Ctx = any> {
  readonly options: AttachOptions<Ctx>;
  /** `tools/list` and `tools/call`: visibility and the compiled stages of each tool. */
  readonly tools: RequestPipeline<Ctx>;
  /** Prompts and resources (the registry's and mcp-fusion's own); undefined when there are none. */
  readonly content: ContentPipeline<Ctx> | undefined;
  readonly features: PipelineFeatures;
  #tasks: TaskService | undefined | null = null;

  private constructor(options: AttachOptions<Ctx>, tools: RequestPipeline<Ctx>, content: ContentPipeline<Ctx> | undefined) {
    this.options = options;
    this.tools = tools;
    this.content = content;
    this.features = buildFeatures(options, content);
  }

  /** Builds the runtime of `parts` under `options` (validating the options and the workflow bindings). */
  static build<Ctx>(parts: RuntimeParts<Ctx>, options: AttachOptions<Ctx>): FusionRuntime<Ctx> {
    const tools = new RequestPipeline(parts.tools, options, undefined, parts.toolSwitch);
    const system = systemResources(tools, options.resourceSubscriptions !== undefined && options.resourceSubscriptions !== false);
    const own = parts.prompts.length + parts.resources.length + parts.resourceTemplates.length > 0;
    const catalog = { prompts: parts.prompts, resources: parts.resources, resourceTemplates: [...parts.resourceTemplates, ...system] };
    const content = own || system.length > 0 ? new ContentPipeline(catalog, options) : undefined;
    return new FusionRuntime(options, tools, content);
  }

  /** The compiled tool surface (routes, wire definitions). */
  get surface(): Surface {
    return this.tools.surface;
  }

  /** The workflow runtime (FSM gate in both eras), when a gate is attached. */
  get workflow(): WorkflowRuntime | undefined {
    return this.tools.workflow;
  }

  /** Runs task-supporting tools as tasks; undefined when no tool of the surface supports tasks. */
  get tasks(): TaskService | undefined {
    if (this.#tasks === null) this.#tasks = this.tools.surface.tools.some((t) => t.task !== undefined) ? new TaskService(this.tools, this.options.tasks, this.options.now, debugSink(this.options.debug)) : undefined;
    return this.#tasks;
  }

  /** Routes list_changed notifications of one session (legacy) or connection to its server. */
  registerSession(key: string, notifyToolsChanged: () => Promise<void>): void {
    this.tools.registerSession(key, notifyToolsChanged);
  }

  /** Drops the per-session state of a closed session or connection. */
  releaseSession(key: string): void {
    this.tools.releaseSession(key);
  }

  /**
   * Graceful shutdown: waits up to `deadlineMs` for running tool calls (tasks' included), aborts the rest, then
   * lets the tasks write their outcomes to the store (at least a second more), so that none is left `working`.
   */
  async drain(deadlineMs: number): Promise<void> {
    const started = performance.now();
    await this.tools.drain(deadlineMs);
    if (this.#tasks) await this.#tasks.stored(Math.max(TASK_OUTCOME_MS, deadlineMs - (performance.now() - started)));
  }

  /** Stops the timers of the workflow sessions; nothing can be notified afterwards. */
  dispose(): void {
    this.tools.dispose();
    if (this.#tasks !== null) this.#tasks?.dispose();
  }
}
