import { once } from 'node:events';
import { Cluster, Redis } from 'ioredis';
import {
  failFastClusterOptions,
  failFastRedisOptions,
  RedisEventBus,
  RedisEventStore,
  RedisFsmStore,
  RedisRateLimitStore,
  RedisSessionStore,
  RedisTaskStore,
} from 'mcp-fusion/redis';

const DAY = 24 * 60 * 60_000;

/** Where the shared state lives: one Redis (`REDIS_URL`) or a Redis Cluster (`REDIS_CLUSTER_NODES=host:port,…`). */
export type RedisTarget = { url: string } | { clusterNodes: string };

/** `host:port,host:port,…` → ioredis startup nodes (a few are enough; the client discovers the rest). */
export function parseClusterNodes(spec: string): Array<{ host: string; port: number }> {
  return spec.split(',').map((entry) => {
    const match = /^\s*([^\s:]+|\[[^\]]+\]):(\d+)\s*$/.exec(entry);
    if (match === null)
      throw new Error(`REDIS_CLUSTER_NODES: "${entry}" is not host:port (expected e.g. 10.0.0.1:6379,10.0.0.2:6379)`);
    return { host: match[1]!.replace(/^\[|\]$/g, ''), port: Number(match[2]) };
  });
}

/**
 * The workspace server's scale-out wiring: sessions, workflow state and notifications in one Redis or one
 * Redis Cluster, so that several processes behind a load balancer behave as one server.
 */
export async function connectRedis(
  target: RedisTarget,
  prefix: string,
  tuning: { eventsTtlMs?: number; commandTimeoutMs?: number } = {},
) {
  const redisOptions = failFastRedisOptions(
    tuning.commandTimeoutMs === undefined ? {} : { commandTimeout: tuning.commandTimeoutMs },
  );
  // A cluster client routes every command to the shard of its keys and holds one sharded subscriber per
  // shard, so it serves as both publisher and subscriber; one node needs a second connection to subscribe.
  const client =
    'url' in target
      ? new Redis(target.url, redisOptions)
      : new Cluster(parseClusterNodes(target.clusterNodes), failFastClusterOptions());
  const subscriber = 'url' in target ? new Redis(target.url, redisOptions) : client;
  let down = false;
  const report = (error: Error): void => {
    if (down) return;
    down = true;
    console.error(`[workspace] Redis unreachable (${error.message}); requests that need it fail fast until it is back`);
  };
  client.on('error', report);
  if (subscriber !== client) subscriber.on('error', report);
  client.on('ready', () => {
    if (down) console.error('[workspace] Redis is back');
    down = false;
  });
  let busErrors = 0;
  const bus = new RedisEventBus({
    publisher: client,
    subscriber,
    prefix: `${prefix}bus:`,
    // Delivery is best effort; say so when it fails (the first few times), so a lost notification has a cause.
    onError: (error) =>
      void (
        busErrors++ < 5 && console.error(`[workspace] notification bus: ${(error as Error)?.message ?? String(error)}`)
      ),
  });
  await Promise.race([
    Promise.all([once(client, 'ready'), bus.ready()]),
    new Promise((resolve) => setTimeout(resolve, 5_000).unref()),
  ]);
  return {
    options: {
      sessionStore: new RedisSessionStore({ client, prefix: `${prefix}session:` }),
      // Legacy workflow state beside the session record (atomic across instances, same hash slot), gone with the session.
      fsmStore: new RedisFsmStore({ client, prefix: `${prefix}fsm:session:`, ttlMs: DAY }),
      workflowStore: new RedisFsmStore({ client, prefix: `${prefix}fsm:handle:` }),
      // Tasks (reports.generate) started on one instance are polled, answered and cancelled through any other.
      tasks: { store: new RedisTaskStore({ client, prefix: `${prefix}tasks:` }) },
      bus,
      // SSE events kept for resumption: a client whose stream drops resumes on any instance (Last-Event-ID).
      eventStore: new RedisEventStore({
        client,
        prefix: `${prefix}events:`,
        ...(tuning.eventsTtlMs === undefined ? {} : { ttlMs: tuning.eventsTtlMs }),
      }),
    },
    /** Rate-limit counts every instance shares (used when RATE_LIMIT is set). */
    rateLimitStore: new RedisRateLimitStore({ client, prefix: `${prefix}ratelimit:` }),
    async close(): Promise<void> {
      await bus.close();
      client.disconnect();
      if (subscriber !== client) subscriber.disconnect();
    },
  };
}
