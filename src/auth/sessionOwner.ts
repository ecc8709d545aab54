import { principalOf } from '../principal/principalOf.js';

/**
 * The principal a legacy session is bound to when it is opened: the key of the verified token's principal,
 * or `undefined` for an unauthenticated session (nothing to bind it to).
 */
export function sessionOwnerOf(authInfo: unknown): string | undefined {
  const principal = principalOf(authInfo);
  return principal.kind === 'anonymous' ? undefined : principal.key;
}

/** True when a request with `authInfo` may use a session bound to `owner` (the same principal, or an unbound session). */
export function mayUseSession(owner: string | undefined, authInfo: unknown): boolean {
  return owner === undefined || owner === sessionOwnerOf(authInfo);
}
