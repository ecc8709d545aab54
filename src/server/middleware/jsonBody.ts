import { httpError } from '../httpErrors.js';
import { readJsonBody } from '../readJsonBody.js';
import type { Middleware } from './types.js';

/**
 * The JSON body of a POST, read once within `limit` bytes (415, 413, 400 `-32700` as {@link readJsonBody}
 * answers), or the host's already parsed one; `405` for a method other than POST, GET and DELETE.
 */
export function jsonBody(limit: number): Middleware {
  return async (c, next) => {
    const { method } = c.request;
    if (method === 'POST') {
      const read = await readJsonBody(c.request, limit, c.body);
      if ('response' in read) return read.response;
      c.body = read.body;
    } else if (method !== 'GET' && method !== 'DELETE') {
      return httpError('methodNotAllowed', 'Method Not Allowed: use POST, GET or DELETE.');
    }
    return next(c);
  };
}
