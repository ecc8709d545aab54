import { peerOf } from './peers.js';
import { peerFallback, requestPrincipal, type PrincipalSource } from './requestPrincipal.js';

/**
 * Whom a request's holdings (subscriptions, stored data, …) count against: its principal when the token
 * names one, else the peer address the connection came from (so that one host opening many anonymous
 * sessions shares one budget), else its anonymous principal (a session or connection).
 */
export function budgetOwner(source: PrincipalSource): string {
  const principal = requestPrincipal(source);
  if (principal.kind !== 'anonymous') return principal.key;
  const peer = peerOf(source.extra.raw);
  return peer === undefined ? principal.key : peerFallback(peer);
}
