import { once } from 'node:events';
import { Redis } from 'ioredis';
import { failFastRedisOptions, RedisEventBus, RedisFsmStore, RedisRateLimitStore, RedisSessionStore } from 'mcp-fusion/redis';

const DAY = 24 * 60 * 60_000;

/**
 * The workspace server's scale-out wiring: sessions, workflow state and notifications in one Redis, so
 * that several processes behind a load balancer behave as one server.
 */
export async function connectRedis(url: string, prefix: string) {
  const client = new Redis(url, failFastRedisOptions());
  const subscriber = new Redis(url, failFastRedisOptions());
  let down = false;
  const report = (error: Error): void => {
    if (down) return;
    down = true;
    console.error(`[workspace] Redis unreachable (${error.message}); requests that need it fail fast until it is back`);
  };
  client.on('error', report);
  subscriber.on('error', report);
  client.on('ready', () => {
    if (down) console.error('[workspace] Redis is back');
    down = false;
  });
  const bus = new RedisEventBus({ publisher: client, subscriber, prefix: `${prefix}bus:` });
  await Promise.race([Promise.all([once(client, 'ready'), bus.ready()]), new Promise((resolve) => setTimeout(resolve, 5_000).unref())]);
  return {
    options: {
      sessionStore: new RedisSessionStore({ client, prefix: `${prefix}session:` }),
      // Legacy workflow state beside the session record (atomic across instances), gone with the session.
      fsmStore: new RedisFsmStore({ client, prefix: `${prefix}fsm:session:`, ttlMs: DAY }),
      workflowStore: new RedisFsmStore({ client, prefix: `${prefix}fsm:handle:` }),
      bus,
    },
    /** Rate-limit counts every instance shares (used when RATE_LIMIT is set). */
    rateLimitStore: new RedisRateLimitStore({ client, prefix: `${prefix}ratelimit:` }),
    async close(): Promise<void> {
      await bus.close();
      client.disconnect();
      subscriber.disconnect();
    },
  };
}
