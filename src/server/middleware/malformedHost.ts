import { httpError } from '../httpErrors.js';
import { badHostMessage, isValidHostHeader } from '../hostHeader.js';
import type { Middleware } from './types.js';

/** `400` for a `Host` header that is not `host[:port]`: first, before anything reads the URL built from it. */
export const malformedHost: Middleware = (c, next) => {
  const host = c.request.headers.get('host');
  return isValidHostHeader(host) ? next(c) : httpError('malformedHost', badHostMessage(host!));
};
