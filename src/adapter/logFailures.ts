import type { OperatorLog } from '../logging/OperatorLog.js';
import { listLogFields, rethrowLogged } from '../runtime/stages/callLogFields.js';
import type { RequestContext } from '../surface/types.js';
import type { MethodHandler } from './contentHandlers.js';

/**
 * The error boundary of the method wrapper: a failure of `method` that is not a protocol answer (a store's,
 * a bug's; not a {@link WireError}) is logged once, as `<method> failed` with the method, session, principal
 * and trace id, and rethrown for the SDK to answer (-32603). Methods whose runtime logs its own failures
 * (`MethodDefinition.logsFailures`) are not wrapped.
 */
export function logFailures(
  method: string,
  handler: MethodHandler,
  rctxOf: (ctx: unknown) => RequestContext,
  log: OperatorLog,
): MethodHandler {
  return (request, ctx) => {
    const failed = (error: unknown): never =>
      rethrowLogged(log, `${method} failed`, { method, ...listLogFields(rctxOf(ctx)) }, error);
    let answer: unknown;
    try {
      answer = handler(request, ctx);
    } catch (error) {
      return failed(error);
    }
    return answer instanceof Promise ? answer.catch(failed) : answer;
  };
}
