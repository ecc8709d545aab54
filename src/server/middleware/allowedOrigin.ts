import { originValidationResponse } from '@modelcontextprotocol/server';
import type { Middleware } from '../httpMiddleware.js';

/** The SDK's `403` for a browser `Origin` outside `origins` (a request without `Origin` passes). */
export function allowedOrigin(origins: string[]): Middleware {
  return (c, next) => originValidationResponse(c.request, origins) ?? next(c);
}
