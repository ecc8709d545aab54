export type { RateLimit, RateLimitCount, RateLimitStore } from './types.js';
export { MemoryRateLimitStore } from './MemoryRateLimitStore.js';
