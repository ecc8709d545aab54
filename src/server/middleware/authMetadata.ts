import type { BearerAuth } from '../../auth/BearerAuth.js';
import type { HttpMiddleware } from '../httpMiddleware.js';

/** The OAuth Protected Resource Metadata document, at its well-known path (`auth.resourceMetadata`). */
export function authMetadata(auth: BearerAuth): HttpMiddleware {
  return (c, next) => auth.metadata(c.request) ?? next(c);
}
