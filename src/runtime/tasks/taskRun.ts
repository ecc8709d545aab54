import { detachedExtra } from '../../builder/detachedExtra.js';
import { CallExtra } from '../core/CallExtra.js';
import type { HandlerExtra } from '../../protocol/types.js';
import { taskTexts } from '../../tasks/taskTexts.js';
import type { TaskRun } from '../../tasks/types.js';
import type { RequestContext } from '../../surface/types.js';

/** A JSON copy (what a remote store would keep), or undefined for what JSON cannot carry. */
function json<T>(value: T): T | undefined {
  if (value === undefined) return undefined;
  try {
    return JSON.parse(JSON.stringify(value)) as T;
  } catch {
    return undefined;
  }
}

/**
 * The call of a task as another instance (or a worker) needs it to run the work again: its arguments and the
 * caller's identity as the request had it. The bearer token is left out: the run is already authorized. Made
 * once the stages admitted the call (a task's record exists only then), so its rate limit is spent.
 */
export function taskRunOf(args: Record<string, unknown> | undefined, rctx: RequestContext): TaskRun {
  const { extra } = rctx;
  const auth = json(extra.authInfo) as Record<string, unknown> | undefined;
  if (auth !== undefined && typeof auth === 'object') delete auth.token;
  return {
    ...(args !== undefined ? { arguments: json(args) } : {}),
    ...(rctx.sessionKey !== undefined ? { sessionKey: rctx.sessionKey } : {}),
    era: extra.era,
    principal: json(extra.principal)!,
    ...(auth !== undefined ? { authInfo: auth } : {}),
    ...(extra.meta !== undefined ? { meta: json(extra.meta) } : {}),
    ...(extra.clientCapabilities !== undefined ? { clientCapabilities: json(extra.clientCapabilities) } : {}),
    rateLimitSpent: true,
  };
}

/**
 * The request side of a run of `run` (task `task`) away from its request (another instance, a worker): the
 * caller's identity as kept; asking a legacy client fails at once with a {@link taskTexts.legacyAskAway} error
 * (its session is on another instance; nothing here could send it the request).
 */
export function replayExtra(run: TaskRun, task: { readonly id: string; readonly tool: string }): CallExtra {
  const away = (method: string) => async (): Promise<never> => {
    throw new Error(taskTexts.legacyAskAway(task.id, task.tool, method));
  };
  const extra = detachedExtra({
    elicit: away('elicitation/create'),
    sample: away('sampling/createMessage'),
    era: run.era,
    sessionId: run.era === 'legacy' ? run.sessionKey : undefined,
    authInfo: run.authInfo,
    meta: run.meta,
    clientCapabilities: run.clientCapabilities,
    principal: run.principal,
  });
  return CallExtra.of(extra, run.sessionKey);
}

/** The request context of a run of `run` away from its request, with the task's `extra`. */
export function replayContext(run: TaskRun, extra: HandlerExtra): RequestContext {
  return { sessionKey: run.sessionKey, extra };
}
