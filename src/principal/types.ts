/**
 * Who is calling, as one stable key: the identity every feature keyed on a caller uses (workflow-handle
 * owners, sealed request state, concurrency and rate limits, listen streams, legacy session binding).
 *
 * - `user`: a verified token that names its subject (`sub`, with its issuer `iss` when known).
 * - `client`: a verified token with a client id but no subject (a machine client), in its own namespace,
 *   so that a client id can never be mistaken for a user's `sub`.
 * - `anonymous`: no verified token. The key is the narrowest thing the transport knows about the caller
 *   (the legacy session id, else the connection or peer address the server passes as `fallback`), so that
 *   unrelated unauthenticated clients are never merged into one principal.
 */
export interface Principal {
  readonly kind: 'user' | 'client' | 'anonymous';
  /** The key every identity-keyed feature uses; never empty, and unique across kinds (`u:`, `c:`, `a:` prefixes). */
  readonly key: string;
  readonly issuer?: string;
  readonly subject?: string;
  readonly clientId?: string;
  /** The scopes the verified token grants (empty when anonymous). */
  readonly scopes: readonly string[];
}

/** The fields of the SDK's `AuthInfo` the principal model reads (`extra.sub` / `extra.iss` carry the JWT claims). */
export interface AuthInfoLike {
  readonly clientId?: unknown;
  readonly scopes?: unknown;
  readonly extra?: { readonly sub?: unknown; readonly iss?: unknown } | undefined;
}

/**
 * Who the network peer of an HTTP request is (the `peers` option): the key of an anonymous principal and
 * of every per-peer budget.
 * @see docs/security.md#the-network-peer
 */
export interface PeerOptions {
  /**
   * Proxies (addresses or CIDR networks: `10.0.0.0/8`, `fd00::/8`, `127.0.0.1`) whose forwarded header is
   * believed. A request from one of them is the peer its header names (the rightmost hop that is not itself
   * a trusted proxy); from anywhere else, the socket's address. Default: none (every header is ignored).
   */
  trustedProxies?: readonly string[];
  /** The header your trusted proxies append the client's address to (`x-forwarded-for`, the default, or `forwarded`). */
  forwardedHeader?: 'x-forwarded-for' | 'forwarded';
  /** Leading bits an IPv6 peer is keyed by (64: a host usually holds a whole /64); 128 keys each address. */
  ipv6PrefixLength?: number;
}
