import { originValidationResponse } from '@modelcontextprotocol/server';
import type { HttpMiddleware } from '../httpMiddleware.js';

/** The SDK's `403` for a browser `Origin` outside `origins` (a request without `Origin` passes). */
export function allowedOrigin(origins: string[]): HttpMiddleware {
  return (c, next) => originValidationResponse(c.request, origins) ?? next(c);
}
