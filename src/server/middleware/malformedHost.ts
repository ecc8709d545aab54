import { httpError } from '../http/httpErrors.js';
import { badHostMessage, isValidHostHeader } from '../http/hostHeader.js';
import type { HttpMiddleware } from '../httpMiddleware.js';

/** `400` for a `Host` header that is not `host[:port]`: first, before anything reads the URL built from it. */
export const malformedHost: HttpMiddleware = (c, next) => {
  const host = c.request.headers.get('host');
  return isValidHostHeader(host) ? next(c) : httpError('malformedHost', badHostMessage(host!));
};
