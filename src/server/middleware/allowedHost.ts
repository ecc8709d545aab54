import { hostHeaderValidationResponse } from '@modelcontextprotocol/server';
import type { Middleware } from '../httpMiddleware.js';

/** The SDK's `403` for a `Host` outside `hosts` (DNS rebinding protection). */
export function allowedHost(hosts: string[]): Middleware {
  return (c, next) => hostHeaderValidationResponse(c.request, hosts) ?? next(c);
}
