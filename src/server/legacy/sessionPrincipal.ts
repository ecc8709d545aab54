import { principalOf } from '../../principal/principalOf.js';
import { peerFallback, sessionFallback } from '../../principal/requestPrincipal.js';
import type { Holder } from '../../ledger/types.js';
import type { SessionRecord } from '../../session/types.js';

/**
 * The caller's principal key on a legacy session opened by `opener`: without credentials, the session's
 * anonymous principal (its opener, when that was anonymous: the peer that opened it); with a token, the token's.
 */
export function callerKey(opener: string, id: string, authInfo: unknown): string {
  if (authInfo === undefined) return opener.startsWith('a:') ? opener : principalOf(undefined, sessionFallback(id)).key;
  return principalOf(authInfo, sessionFallback(id)).key;
}

/**
 * The peer key that opened an anonymous legacy session (its budget owner), or undefined (opened with a
 * token, or without a known peer): every request of the session is that peer's.
 */
export function openerPeer(record: SessionRecord | undefined): string | undefined {
  const prefix = peerFallback('');
  if (record?.principal?.startsWith('a:') !== true || record.owner?.startsWith(prefix) !== true) return undefined;
  return record.owner.slice(prefix.length);
}

/**
 * Whose held bytes session `id`'s are, from its record (a session restored here, opened elsewhere): its
 * budget owner (an anonymous opener's peer, or the token's principal) and the peer that opened it, if known.
 */
export function recordHolder(id: string, record: SessionRecord | undefined): Holder {
  const principal = record?.owner ?? record?.principal ?? principalOf(undefined, sessionFallback(id)).key;
  const peer = openerPeer(record);
  return peer === undefined ? { principal } : { principal, peer };
}
