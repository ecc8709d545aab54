import type { ByteLedger } from '../../ledger/ByteLedger.js';
import { frontHolder } from '../../principal/frontHolder.js';
import { bodyHold } from '../http/bodyHold.js';
import { httpError } from '../http/httpErrors.js';
import { readJsonBody } from '../node/readJsonBody.js';
import type { HttpMiddleware } from '../httpMiddleware.js';

/**
 * The JSON body of a POST, read once within `limit` bytes (415, 413, 400 `-32700` as {@link readJsonBody}
 * answers), or the host's already parsed one; `405` for a method other than POST, GET and DELETE. With a
 * `ledger`, the body's bytes are held for the caller (its verified principal, else its peer) as they arrive
 * (429/503 past a budget, the reading stopped) until the request is answered.
 */
export function jsonBody(limit: number, ledger?: ByteLedger): HttpMiddleware {
  return async (c, next) => {
    const { method } = c.request;
    if (method === 'POST') {
      const unread = c.body === undefined && ledger !== undefined;
      const hold = unread ? bodyHold(ledger, frontHolder(c.authInfo, c.peerKey), c.request) : undefined;
      try {
        const read = await readJsonBody(c.request, limit, c.body, hold);
        if ('response' in read) return read.response;
        c.body = read.body;
        return await next(c);
      } finally {
        hold?.release();
      }
    } else if (method !== 'GET' && method !== 'DELETE') {
      return httpError('methodNotAllowed', 'Method Not Allowed: use POST, GET or DELETE.');
    }
    return next(c);
  };
}
