export type { AuthOptions, ResourceMetadataOptions } from './types.js';
export { jwksVerifier, type JoseModule, type JwksVerifierOptions } from './jwksVerifier.js';
export { devTokens, type DevTokensOptions } from './devTokens.js';
