import type { AuthGate } from '../../auth/AuthGate.js';
import type { Middleware } from '../httpMiddleware.js';

/** The OAuth Protected Resource Metadata document, at its well-known path (`auth.resourceMetadata`). */
export function authMetadata(auth: AuthGate): Middleware {
  return (c, next) => auth.metadata(c.request) ?? next(c);
}
