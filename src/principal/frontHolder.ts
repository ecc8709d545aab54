import type { Holder } from '../ledger/types.js';
import { principalOf } from './principalOf.js';
import { peerFallback } from './requestPrincipal.js';

/**
 * Whose held bytes an HTTP request's are before any MCP handler runs (its body, its listen stream): the
 * principal its verified token names, else its network peer (`peer:<peerKey>`, as `budgetOwner` keys
 * it), and that peer. Without a peer (a host calling `fetch` without one) an anonymous caller is the one
 * anonymous principal.
 */
export function frontHolder(authInfo: unknown, peer: string | undefined): Holder {
  const principal = principalOf(authInfo);
  const key = principal.kind === 'anonymous' && peer !== undefined ? peerFallback(peer) : principal.key;
  return peer === undefined ? { principal: key } : { principal: key, peer };
}
