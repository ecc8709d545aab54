import type { ToolResponse } from '../../protocol/types.js';
import type { ResolvedCall } from '../stages/pickAction.js';
import type { RequestContext } from '../../surface/types.js';
import { CallExtra } from '../core/CallExtra.js';
import { isNotRun, notRun } from '../stages/notRun.js';
import type { ToolRuntime } from '../tools/ToolRuntime.js';
import type { Ticket } from '../core/CallTracker.js';

const admittedOnly = (): Promise<ToolResponse> => Promise.resolve(notRun);

/**
 * The admission-only pass of a queued task's call, on the front before its record exists: the call goes
 * through every stage of its tool (scopes, concurrency, the workflow gate, validation, the rate limit) as a
 * plain call would, and where its handler would run, the handler stage answers {@link notRun} instead. So a
 * refused call is answered at once and takes no task slot, and the rate limit is spent here, once (the run on
 * the worker passes it: `TaskRun.rateLimitSpent`). The gate only checks here (nothing runs, nothing moves);
 * the worker's run checks it again, since the state may move while the task waits in the queue.
 * `ticket`: the request's ticket in the in-flight count (its HTTP reservation), held by the pass rather than
 * counted again. Resolves undefined when every stage admitted the call, else the refusal that answers it.
 */
export async function admitQueued(
  tools: ToolRuntime<any>,
  call: Omit<ResolvedCall, 'name'>,
  name: string,
  args: Record<string, unknown> | undefined,
  rctx: RequestContext,
  ticket?: Ticket,
): Promise<ToolResponse | undefined> {
  const base = CallExtra.of(rctx.extra, rctx.sessionKey);
  // Detached only to carry `admitted`; no `claimResult`: the gate checks the state under its lock as for a
  // plain call (a task's run would take the lock twice and keep a freshly minted workflow handle alive).
  const extra = base.detach({
    signal: base.signal,
    progress: base.progress,
    log: base.log,
    elicit: base.elicit,
    sample: base.sample,
    admitted: admittedOnly,
  });
  const answer = await tools.callTool(name, args, { ...rctx, extra }, call, ticket);
  return isNotRun(answer) ? undefined : answer;
}
