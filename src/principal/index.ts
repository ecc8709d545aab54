export type { AuthInfoLike, Principal } from './types.js';
export { principalOf } from './principalOf.js';
