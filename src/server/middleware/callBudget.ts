import type { CallBudget } from '../http/CallBudget.js';
import type { HttpMiddleware } from '../httpMiddleware.js';

/**
 * `limits.maxInFlightCalls`: the request messages of the body counted (tickets in the runtime's count, handed to
 * their handlers) until their answer ends; the tool calls past the budget refused.
 */
export function callBudget(calls: CallBudget): HttpMiddleware {
  return (c, next) => calls.run(c.request, c.body, async () => next(c));
}
