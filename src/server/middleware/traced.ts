import type { RequestTracing } from '../../tracing/RequestTracing.js';
import type { FrontContext } from '../httpMiddleware.js';

/** `response`, a refusal of the HTTP front, with its span when tracing is on. */
export function traced(tracing: RequestTracing | undefined, c: FrontContext, response: Response): Response {
  return tracing === undefined ? response : tracing.refused(c.request, c.body, response);
}
