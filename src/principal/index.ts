export type { AuthInfoLike, PeerOptions, Principal } from './types.js';
export { principalOf } from './principalOf.js';
export { peerOf, rememberPeer } from './peers.js';
export { DEFAULT_PEER_POLICY, peerKey, type PeerPolicy, type TrustedNetwork } from './peerKey.js';
export { peerPolicy } from './peerPolicy.js';
export { peerFallback, requestPrincipal, sessionFallback, type PrincipalSource } from './requestPrincipal.js';
