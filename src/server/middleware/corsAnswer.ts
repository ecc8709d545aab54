import { originValidationResponse } from '@modelcontextprotocol/server';
import { withCors } from '../http/cors.js';
import type { HttpMiddleware } from '../httpMiddleware.js';

/** CORS headers on every answer to a browser origin on the allow-list: a refused origin learns nothing more. */
export function corsAnswer(origins: string[]): HttpMiddleware {
  return (c, next) => {
    const { request } = c;
    if (request.headers.get('origin') === null) return next(c);
    return Promise.resolve(next(c)).then((response) =>
      originValidationResponse(request, origins) === undefined ? withCors(request, response) : response,
    );
  };
}
