import type { AuthInfoLike, Principal } from './types.js';

const ANONYMOUS_UNKNOWN = 'a:unknown';

/**
 * The principal of a request: the issuer and `sub` of a verified token when it names a subject, its client
 * id (in its own namespace) otherwise, and `anonymous` keyed by `fallback` (a session id, connection id or
 * peer address) when there is no verified token. Pure; keys are JSON-encoded so no crafted value can collide
 * with another kind or another issuer.
 *
 * @example principalOf({ clientId: 'app', scopes: [], extra: { sub: 'alice', iss: 'https://id.example' } }).key
 *   // 'u:["https://id.example","alice"]'
 */
export function principalOf(authInfo: unknown, fallback?: string): Principal {
  const auth = (typeof authInfo === 'object' && authInfo !== null ? authInfo : undefined) as AuthInfoLike | undefined;
  const scopes = Array.isArray(auth?.scopes) ? (auth.scopes.filter((s) => typeof s === 'string') as string[]) : [];
  const sub = nonEmpty(auth?.extra?.sub);
  const iss = nonEmpty(auth?.extra?.iss);
  const clientId = nonEmpty(auth?.clientId);
  if (sub !== undefined) {
    return {
      kind: 'user',
      key: `u:${JSON.stringify([iss ?? '', sub])}`,
      subject: sub,
      scopes,
      ...(iss === undefined ? {} : { issuer: iss }),
      ...(clientId === undefined ? {} : { clientId }),
    };
  }
  if (clientId !== undefined)
    return {
      kind: 'client',
      key: `c:${JSON.stringify([iss ?? '', clientId])}`,
      clientId,
      scopes,
      ...(iss === undefined ? {} : { issuer: iss }),
    };
  const local = nonEmpty(fallback);
  return { kind: 'anonymous', key: local === undefined ? ANONYMOUS_UNKNOWN : `a:${JSON.stringify(local)}`, scopes: [] };
}

function nonEmpty(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}
