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
