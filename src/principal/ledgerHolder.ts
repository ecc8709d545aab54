import type { Holder } from '../ledger/types.js';
import { budgetOwner } from './budgetOwner.js';
import { peerOf } from './peers.js';
import type { PrincipalSource } from './requestPrincipal.js';

/**
 * Whose held bytes a request's are, for the ledger: its budget owner (the principal a token names, else its
 * network peer, else its session or connection) and the network peer it came from, when it came over HTTP.
 */
export function ledgerHolder(source: PrincipalSource): Holder {
  const peer = peerOf(source.extra.raw);
  return peer === undefined ? { principal: budgetOwner(source) } : { principal: budgetOwner(source), peer };
}
