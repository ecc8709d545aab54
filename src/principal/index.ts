export type { AuthInfoLike, Principal } from './types.js';
export { principalOf } from './principalOf.js';
export { peerOf, rememberPeer } from './peers.js';
export { requestPrincipal, sessionFallback, type PrincipalSource } from './requestPrincipal.js';
