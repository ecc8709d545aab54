import type { Answer, FrontContext, HttpMiddleware, Next } from '../httpMiddleware.js';

/**
 * Chains `middlewares` in order in front of `end`; `undefined` entries (a concern that is off) are left out.
 * The chain is built once: a request allocates nothing to pass from one middleware to the next.
 */
export function compose(
  middlewares: ReadonlyArray<HttpMiddleware | undefined>,
  end: Next,
): (c: FrontContext) => Answer {
  let chain: Next = end;
  for (let i = middlewares.length - 1; i >= 0; i--) {
    const middleware = middlewares[i];
    if (middleware === undefined) continue;
    const next = chain;
    chain = (c) => middleware(c, next);
  }
  return chain;
}
