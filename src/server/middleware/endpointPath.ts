import { httpError } from '../http/httpErrors.js';
import { pathnameOf } from '../http/urlPath.js';
import type { HttpMiddleware } from '../httpMiddleware.js';

/** `404` for any path but the MCP endpoint's. */
export function endpointPath(path: string): HttpMiddleware {
  const message = `Not Found: the MCP endpoint is ${path}.`;
  return (c, next) => (pathnameOf(c.request.url) === path ? next(c) : httpError('notFound', message));
}
