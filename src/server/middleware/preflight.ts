import { preflightResponse } from '../http/cors.js';
import type { HttpMiddleware } from '../httpMiddleware.js';

/** The answer to a CORS preflight (`OPTIONS`): it carries no credentials, so it comes before authentication. */
export const preflight: HttpMiddleware = (c, next) =>
  c.request.method === 'OPTIONS' ? preflightResponse(c.request) : next(c);
