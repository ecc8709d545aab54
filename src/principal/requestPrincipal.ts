import { peerOf } from './peers.js';
import { principalOf } from './principalOf.js';
import type { Principal } from './types.js';

/** What {@link requestPrincipal} reads of a request: the request context's shape, structurally. */
export interface PrincipalSource {
  readonly sessionKey?: string | undefined;
  readonly extra: {
    readonly authInfo?: unknown;
    readonly era?: string;
    readonly sessionId?: string | undefined;
    readonly raw?: unknown;
  };
}

/**
 * The principal of one MCP request. A verified token decides when there is one (see {@link principalOf}).
 * Without one, the anonymous caller is its network peer whenever the request came over HTTP: the peer key the
 * app recorded for the request (`peerKey`: the IPv4 address, the IPv6 /64, or the forwarded address behind a
 * trusted proxy). In the legacy era that is the peer that opened the session, so a new session, a new
 * connection or a new address in the same /64 resets nothing: rate limits, task budgets, session budgets and
 * ownership (handles, tasks) follow the peer. The cost is that anonymous clients on one host or behind one
 * NAT share one principal — authenticate them to keep them apart. Without HTTP the key is the session or
 * connection (stdio and in-memory transports serve exactly one client), else one process-wide key.
 */
export function requestPrincipal(source: PrincipalSource): Principal {
  const { extra } = source;
  const peer = peerOf(extra.raw);
  if (peer !== undefined || extra.era === 'modern')
    return principalOf(extra.authInfo, peer === undefined ? undefined : peerFallback(peer));
  const session = extra.sessionId ?? source.sessionKey;
  return principalOf(extra.authInfo, session === undefined ? undefined : sessionFallback(session));
}

/** The anonymous fallback key of a legacy session (or connection): namespaced so that it never equals a peer's. */
export function sessionFallback(sessionId: string): string {
  return `session:${sessionId}`;
}

/** The anonymous fallback key of a network peer (a `peerKey`): the budget owner of its sessions too. */
export function peerFallback(peer: string): string {
  return `peer:${peer}`;
}
