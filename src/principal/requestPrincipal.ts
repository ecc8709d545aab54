import { peerOf } from './peers.js';
import { principalOf } from './principalOf.js';
import type { Principal } from './types.js';

/** What {@link requestPrincipal} reads of a request: the pipeline's scope shape, structurally. */
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
 * Without one, the anonymous key is:
 * - legacy era: the session (`Mcp-Session-Id`, or the connection over stdio and in-memory transports), so
 *   every session is its own anonymous principal;
 * - modern era over HTTP: the peer address the server accepted the connection from (not the port: clients
 *   open new connections at will, so a port-keyed principal would lose its handles and escape its budgets
 *   by reconnecting; the cost is that anonymous clients on one host or behind one NAT share one key —
 *   authenticate them to keep them apart);
 * - modern era without HTTP (stdio serves exactly one client per process): one process-wide key.
 */
export function requestPrincipal(source: PrincipalSource): Principal {
  const { extra } = source;
  if (extra.era === 'modern') {
    const peer = peerOf(extra.raw);
    return principalOf(extra.authInfo, peer === undefined ? undefined : `peer:${peer}`);
  }
  const session = extra.sessionId ?? source.sessionKey;
  return principalOf(extra.authInfo, session === undefined ? undefined : sessionFallback(session));
}

/** The anonymous fallback key of a legacy session (or connection): namespaced so that it never equals a peer's. */
export function sessionFallback(sessionId: string): string {
  return `session:${sessionId}`;
}
