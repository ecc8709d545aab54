import type { BearerAuth } from '../../auth/BearerAuth.js';
import type { RequestTracing } from '../../tracing/RequestTracing.js';
import { traced } from './traced.js';
import type { HttpMiddleware } from '../httpMiddleware.js';

/** The bearer token verified (`auth` option): its `AuthInfo` goes on, a missing or bad one gets the 401 challenge. */
export function authenticate(auth: BearerAuth, tracing: RequestTracing | undefined): HttpMiddleware {
  return async (c, next) => {
    const verified = await auth.authenticate(c.request);
    if (verified instanceof Response) return traced(tracing, c, verified);
    c.authInfo = verified;
    return next(c);
  };
}
