import type { CallBudget } from '../http/CallBudget.js';
import type { HttpMiddleware } from '../httpMiddleware.js';

/** `limits.maxInFlightCalls`: the tool calls of the body admitted and counted until their answer ends, or refused. */
export function callBudget(calls: CallBudget): HttpMiddleware {
  return (c, next) => calls.run(c.body, async () => next(c));
}
