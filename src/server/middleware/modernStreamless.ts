import { httpError } from '../http/httpErrors.js';
import type { HttpMiddleware } from '../httpMiddleware.js';

/** The 2026-07-28 era has no GET stream and no session to DELETE: `405` saying so, so that hosts do not retry. */
export const modernStreamless: HttpMiddleware = (c, next) => {
  const { request } = c;
  if (request.method === 'POST' || !isModernWithoutSession(request)) return next(c);
  const version = request.headers.get('mcp-protocol-version') ?? '2026-07-28';
  return httpError(
    'noModernStream',
    `Method Not Allowed: protocol version ${version} has no ${request.method} stream or session; send requests with POST (use subscriptions/listen for notifications).`,
  );
};

/** A GET or DELETE that names a 2026-07-28 (or later) protocol version and no legacy session. */
export function isModernWithoutSession(request: Request): boolean {
  const version = request.headers.get('mcp-protocol-version');
  if (request.headers.get('mcp-session-id') !== null || version === null) return false;
  return /^\d{4}-\d{2}-\d{2}$/.test(version) && version >= '2026-07-28';
}
