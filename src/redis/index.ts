// mcp-fusion/redis — Redis-backed stores and the cross-instance notification bus (peer: ioredis).
export { RedisFsmStore, type RedisFsmStoreOptions } from './RedisFsmStore.js';
export { RedisSessionStore, type RedisSessionStoreOptions } from './RedisSessionStore.js';
export { RedisEventBus, type RedisEventBusOptions } from './RedisEventBus.js';
export { failFastRedisOptions } from './failFastRedisOptions.js';
export { failFastClusterOptions } from './failFastClusterOptions.js';
export { RedisRateLimitStore, type RedisRateLimitStoreOptions } from './RedisRateLimitStore.js';
export { RedisTaskStore, type RedisTaskStoreOptions } from './RedisTaskStore.js';
export { RedisNonceStore, type RedisNonceStoreOptions } from './RedisNonceStore.js';
export { RedisEventStore, type RedisEventStoreOptions } from './RedisEventStore.js';
export { BullTaskQueue, type BullTaskQueueOptions } from './BullTaskQueue.js';
export { startTaskWorker, type TaskWorker, type TaskWorkerOptions } from './startTaskWorker.js';
