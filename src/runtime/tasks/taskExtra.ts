import type { HandlerExtra, ToolResponse } from '../../protocol/types.js';
import { withMessage } from '../../tasks/transitions.js';
import type { CallExtra } from '../core/CallExtra.js';
import { askThroughTask, relayThroughTask, type TaskInputParts } from './taskInput.js';

/** What a task's run does instead of the request's: its own signal, progress into the task, input through the task. */
export interface TaskExtraParts {
  readonly signal: AbortSignal;
  progress(done: number, total?: number, message?: string): Promise<void>;
  /** Asks the client (`elicitation/create`, `sampling/createMessage`) through the task and resolves its answer. */
  ask(method: string, params: Record<string, unknown>): Promise<Record<string, unknown>>;
  /**
   * Sends a request to a legacy client itself (`send`, with the params the task gives it: the related-task
   * `_meta` added), the task showing `input_required` meanwhile.
   */
  relay(
    method: string,
    params: Record<string, unknown>,
    send: (params: Record<string, unknown>) => Promise<Record<string, unknown>>,
  ): Promise<Record<string, unknown>>;
  /** Claims the handler's result for the task before it counts: false when the task was cancelled meanwhile. */
  claimResult(): Promise<boolean> | true;
  /** Told when the stages admitted the call, before its handler runs (see `DetachedParts.admitted`). */
  readonly admitted?: (() => Promise<ToolResponse | undefined> | undefined) | undefined;
  /** The call spent its rate limit when the stages admitted it: this run does not spend it again. */
  readonly rateLimitSpent?: boolean | undefined;
}

/**
 * The `extra` a task's handler gets, in the one shape of every extra ({@link CallExtra.detach}): the request's
 * identity (principal, auth, capabilities, `_meta`, multi-round-trip answers), read from the request's extra
 * when asked for (its data outlives the request),
 * and the task's own signal, progress and input. Logs reach a legacy session while it lives; a modern request's stream is
 * gone, so they are dropped there.
 */
export function taskExtra(base: CallExtra, parts: TaskExtraParts): CallExtra {
  const legacy = base.era === 'legacy';
  const log: HandlerExtra['log'] = legacy
    ? (level, data, logger) => base.log(level, data, logger).catch(() => {})
    : async () => {};
  const elicit: HandlerExtra['elicit'] = legacy
    ? (params) => parts.relay('elicitation/create', params, (sent) => base.elicit(sent))
    : (params) => parts.ask('elicitation/create', params);
  const sample: HandlerExtra['sample'] = legacy
    ? (params) => parts.relay('sampling/createMessage', params, (sent) => base.sample(sent))
    : (params) => parts.ask('sampling/createMessage', params);
  // A copy that reads the request's data on demand, with the run's own signal and helpers.
  return base.detach({
    signal: parts.signal,
    progress: parts.progress,
    log,
    elicit,
    sample,
    claimResult: parts.claimResult,
    admitted: parts.admitted,
    rateLimitSpent: parts.rateLimitSpent,
  });
}

/**
 * The extra of one run of task `id` (resolved once it is stored): `base`'s request data, the run's signal
 * (`controller`), progress into the task's status message, and input through the task; `more`: how the
 * stages admit it (`admitted`, `rateLimitSpent`).
 */
export function runExtra(
  input: TaskInputParts,
  base: CallExtra,
  controller: AbortController,
  id: Promise<string>,
  claimResult: () => Promise<boolean> | true,
  more: Pick<TaskExtraParts, 'admitted' | 'rateLimitSpent'> = {},
): CallExtra {
  const { ledger, watchers } = input;
  let asked = 0;
  const keyOf = (method: string): string => `${method === 'elicitation/create' ? 'elicit' : 'sample'}-${++asked}`;
  return taskExtra(base, {
    signal: controller.signal,
    progress: async (done, total, message) => {
      const text = message ?? (total === undefined ? `${done}` : `${done}/${total}`);
      watchers.emit(await ledger.step(await id, (r) => withMessage(r, ledger.now(), text)));
    },
    ask: async (method, params) =>
      askThroughTask(input, await id, keyOf(method), { method, params }, controller.signal),
    relay: async (method, params, send) => relayThroughTask(input, await id, keyOf(method), { method, params }, send),
    claimResult,
    ...more,
  });
}
