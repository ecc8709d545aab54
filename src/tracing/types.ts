import type { TaskStatus } from '../tasks/types.js';

/**
 * Options of the `tracing` attach/serve option. The tracer, meter and module are typed structurally so
 * that the public types of mcp-fusion never name `@opentelemetry/api` (an optional peer): pass the values
 * you got from it.
 * @see docs/observability.md
 */
export interface TracingOptions {
  /** The tracer spans are started on (default: `trace.getTracer('mcp-fusion')` of the global provider). */
  tracer?: { startSpan(name: string, ...rest: any[]): unknown };
  /** The meter the duration histograms are created on (default: `metrics.getMeter('mcp-fusion')`). */
  meter?: { createHistogram(name: string, ...rest: any[]): unknown };
  /**
   * The `@opentelemetry/api` module itself, for bundles that cannot resolve a lazy `import()` (Workers,
   * single-file builds): `import * as otel from '@opentelemetry/api'` then `tracing: { api: otel }`.
   */
  api?: object;
}

/** Why a call was refused before (or instead of) running its handler; low cardinality, for span events. */
export type RefusalReason =
  | 'workflow_state'
  | 'workflow_handle'
  | 'unknown_action'
  | 'too_many_calls'
  | 'insufficient_scope'
  | 'rate_limited'
  | (string & {});

/**
 * What the request path tells the span of the MCP request it serves. Present on a request context only
 * when tracing is on, so the untraced path costs an `undefined` check.
 */
export interface RequestTrace {
  /** The trace id of the request's span (logged with a failure, to find the trace). */
  readonly traceId?: string;
  /** An FSM transition caused by this request. */
  transition(machine: string, from: string, to: string, event: string | undefined): void;
  /** The request was refused with an `isError` result the agent reads (`reason` is low-cardinality). */
  refusal(reason: RefusalReason, message: string): void;
  /** The call was answered with a task (its work goes on after this request's span ends). */
  task?(taskId: string, status: TaskStatus): void;
}

/** What the client answered to one request a handler sent it (`elicitation/create`, `sampling/createMessage`). */
export interface ClientAnswer {
  readonly method: 'elicitation/create' | 'sampling/createMessage';
  /** The client's result, as the handler got it. */
  readonly result?: Record<string, unknown>;
  /** The error's message, when the request failed instead. */
  readonly error?: string;
}

/**
 * What the debug observer receives: every list, call, refusal, workflow transition, State Sync
 * invalidation and `list_changed`, plus warnings and swallowed errors. `createDebugObserver()` prints
 * each as one line. Tool names are canonical (`platform.users.create`) whatever the exposition.
 */
export type DebugEvent =
  | { type: 'warning'; message: string }
  | { type: 'list'; count: number; sessionId: string | undefined }
  | { type: 'call'; tool: string; ok: boolean; durationMs: number; sessionId: string | undefined }
  /** A call refused before its handler ran: hidden by the workflow gate (`gate`) or over `maxConcurrentCalls` (`budget`). */
  | {
      type: 'refusal';
      tool: string;
      reason: 'gate' | 'budget';
      state?: string;
      sessionId: string | undefined;
      workflowKey?: string;
    }
  /** A served call moved a workflow: `sessionId` (legacy per-session state) or `workflowKey` (an instance). */
  | {
      type: 'transition';
      tool: string;
      event: string;
      from: string;
      to: string;
      machine: string;
      sessionId: string | undefined;
      workflowKey?: string;
    }
  | { type: 'invalidation'; patterns: readonly string[]; causedBy: string }
  /** A `notifications/tools/list_changed` is due: after a transition (to `sessionId`) or a run-time enable/disable (to everyone). */
  | { type: 'list_changed'; reason: 'transition' | 'tools-changed'; sessionId?: string }
  | { type: 'error'; message: string; error: unknown }
  /**
   * A task changed status (created `working`, `input_required`, or terminal); `statusMessage` says why when
   * it failed or was cancelled. `sessionId`: the legacy session that started it; `attempt`: which run of the
   * work this is, when the task store counts runs.
   */
  | {
      type: 'task';
      tool: string;
      taskId: string;
      status: TaskStatus;
      statusMessage?: string;
      sessionId?: string;
      attempt?: number;
    }
  /** A working task reported progress (`progress`: its message, or `done/total`); not printed by `createDebugObserver`. */
  | { type: 'task_progress'; tool: string; taskId: string; progress: string; sessionId?: string; attempt?: number }
  /**
   * One `tools/call` as the agent read it, emitted only when an observer is set (the dev console reads it):
   * the called name, the caller, the arguments, the exact text of the result or refusal, the time spent in
   * each stage (`handler` included, `after` for State Sync and the transition) and, for a handler that
   * threw, its stack. `refused`: answered by a stage or as an unknown tool, the handler never ran.
   */
  | {
      type: 'result';
      tool: string;
      sessionId: string | undefined;
      workflowKey: string | undefined;
      principal: string;
      scopes: readonly string[];
      args: unknown;
      ok: boolean;
      refused: boolean;
      text: string;
      durationMs: number;
      stages: ReadonlyArray<{ stage: string; ms: number }>;
      stack: string | undefined;
      /** What the client answered to the handler's `elicit` and `sample` requests, in order (none: undefined). */
      answers?: ReadonlyArray<ClientAnswer> | undefined;
    };
