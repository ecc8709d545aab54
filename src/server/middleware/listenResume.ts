import type { ListenStreams } from '../listen/ListenStreams.js';
import { tokenExpiryMs } from '../http/tokenExpiry.js';
import { isModernWithoutSession } from './modernStreamless.js';
import type { HttpMiddleware } from '../httpMiddleware.js';

/** Sends a `subscriptions/listen` request (the one stored beside a stream another instance recorded). */
export type Relisten = (authInfo: unknown) => (listen: Request, body: unknown) => Promise<Response>;

/**
 * A 2026-07-28 `GET` with `Last-Event-ID` resumes a dropped listen stream (this instance's, or one recorded
 * in the shared event store by another): the missed events, then the live ones. Anything else passes on.
 */
export function listenResume(listens: ListenStreams, relisten: Relisten): HttpMiddleware {
  return async (c, next) => {
    if (c.request.method !== 'GET' || !isModernWithoutSession(c.request)) return next(c);
    const caller = { authInfo: c.authInfo, peer: c.peerKey, expiresAtMs: tokenExpiryMs(c.authInfo) };
    return (await listens.resume(c.request, caller, relisten(c.authInfo))) ?? next(c);
  };
}
