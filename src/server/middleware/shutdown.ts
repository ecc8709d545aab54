import { httpError } from '../http/httpErrors.js';
import type { HttpMiddleware } from '../httpMiddleware.js';

/** `503` with `Retry-After` once the app is closing (`closing()` true). */
export function shutdown(closing: () => boolean): HttpMiddleware {
  const message = 'Service Unavailable: the server is shutting down; retry on another instance or later.';
  return (c, next) => (closing() ? httpError('shuttingDown', message) : next(c));
}
