import type { ClusterOptions } from 'ioredis';
import { failFastRedisOptions } from './failFastRedisOptions.js';

/**
 * ioredis `Cluster` options for a server that must fail fast when the cluster is unreachable and recover by
 * itself: {@link failFastRedisOptions} for every node connection (1 s command timeout, 2 s connect timeout),
 * no cluster-level offline queue, sharded subscribers (the {@link RedisEventBus} uses `SSUBSCRIBE` on a
 * cluster), a slot map refreshed every 2 s (so that sharded subscriptions follow a moved slot), reconnection
 * with a backoff capped at 1 s, and redirections (`MOVED`/`ASK` during a slot
 * migration) followed up to 16 times. Pass your own values in `overrides`.
 * @example
 * const cluster = new Cluster([{ host: '10.0.0.1', port: 6379 }], failFastClusterOptions());
 * @see docs/scaling.md
 */
export function failFastClusterOptions(overrides: ClusterOptions = {}): ClusterOptions {
  const { redisOptions, ...rest } = overrides;
  return {
    // Node connections keep their offline queue: the command timeout still bounds every command, and a
    // node the cluster just redirected to may not be connected yet.
    redisOptions: failFastRedisOptions({ enableOfflineQueue: true, ...redisOptions }),
    enableOfflineQueue: false,
    shardedSubscribers: true,
    clusterRetryStrategy: (times) => Math.min(50 * times, 1_000),
    maxRedirections: 16,
    retryDelayOnMoved: 0,
    retryDelayOnTryAgain: 50,
    slotsRefreshTimeout: 2_000,
    // ioredis refreshes its slot map only on MOVED unless this is set; a subscriber never sees a MOVED,
    // so without it the bus would not notice that a slot (and its sharded subscriptions) moved.
    slotsRefreshInterval: 2_000,
    ...rest,
  };
}
