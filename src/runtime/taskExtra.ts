import type { ToolExtra } from '../protocol/types.js';

/** What a task's run does instead of the request's: its own signal, progress into the task, input through the task. */
export interface TaskExtraParts {
  readonly signal: AbortSignal;
  progress(done: number, total?: number, message?: string): Promise<void>;
  /** Asks the client (`elicitation/create`, `sampling/createMessage`) through the task and resolves its answer. */
  ask(method: string, params: Record<string, unknown>): Promise<Record<string, unknown>>;
}

/**
 * The `extra` a task's handler gets: the request's identity (principal, auth, capabilities, `_meta`,
 * multi-round-trip answers) read once, since the request ends before the work does, and the task's own
 * signal, progress and input. Logs reach a legacy session while it lives; a modern request's stream is
 * gone, so they are dropped there.
 */
export function taskExtra(base: ToolExtra, parts: TaskExtraParts): ToolExtra {
  const legacy = base.era === 'legacy';
  return {
    signal: parts.signal,
    sessionId: base.sessionId,
    era: base.era,
    requestId: base.requestId,
    authInfo: base.authInfo,
    meta: base.meta,
    clientCapabilities: base.clientCapabilities,
    inputResponses: base.inputResponses,
    requestState: base.requestState,
    raw: base.raw,
    principal: base.principal,
    sealState: base.sealState,
    progress: parts.progress,
    log: legacy ? (level, data, logger) => base.log(level, data, logger).catch(() => {}) : async () => {},
    elicit: legacy ? base.elicit : (params) => parts.ask('elicitation/create', params),
    sample: legacy ? base.sample : (params) => parts.ask('sampling/createMessage', params),
  };
}
