import { hostHeaderValidationResponse } from '@modelcontextprotocol/server';
import type { HttpMiddleware } from '../httpMiddleware.js';

/** The SDK's `403` for a `Host` outside `hosts` (DNS rebinding protection). */
export function allowedHost(hosts: string[]): HttpMiddleware {
  return (c, next) => hostHeaderValidationResponse(c.request, hosts) ?? next(c);
}
