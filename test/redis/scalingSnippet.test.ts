import { Redis } from 'ioredis';
import { afterEach, describe, expect, inject, it, vi } from 'vitest';
import { initFusion, startServer, type Logger, type RunningServer } from '../../src/index.js';
import {
  failFastRedisOptions,
  RedisEventBus,
  RedisEventStore,
  RedisFsmStore,
  RedisSessionStore,
} from '../../src/redis/index.js';
import { texts, v2HttpClient } from '../_helpers/clients.js';
import { uniquePrefix } from './clients.js';

type LogRecord = { level: keyof Logger; message: string; fields: Record<string, unknown> };

const records: LogRecord[] = [];
const at = (level: keyof Logger) => (fields: Record<string, unknown>, message: string) =>
  void records.push({ level, message, fields });
const logger: Logger = { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };

const f = initFusion();
const checkout = f.fsm({
  id: 'checkout',
  initial: 'empty',
  states: { empty: { on: { ADD: 'has_items' } }, has_items: { on: { PAY: 'paid' } }, paid: {} },
});
const registry = f.registry().registerAll(
  f
    .mutation('cart.add')
    .describe('Adds an item')
    .bindState(['empty', 'has_items'], 'ADD')
    .handle(() => 'added'),
  f
    .mutation('cart.pay')
    .describe('Pays')
    .bindState('has_items', 'PAY')
    .handle(() => 'paid'),
);

const cleanup: Array<() => Promise<unknown> | void> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
  vi.unstubAllEnvs();
});

/**
 * One instance as docs/scaling.md starts it: fail-fast clients built and used without waiting for them to
 * connect, a bus, the session and workflow stores and an event store on Redis, and the workflow machine.
 */
async function instance(prefix: string): Promise<RunningServer> {
  const url = inject('redisUrl');
  const redis = new Redis(url, failFastRedisOptions());
  const subscriber = new Redis(url, failFastRedisOptions()); // pub/sub needs its own connection
  cleanup.push(
    () => void redis.disconnect(),
    () => void subscriber.disconnect(),
  );
  const bus = new RedisEventBus({ publisher: redis, subscriber, prefix: `${prefix}bus:`, logger });
  await bus.ready();
  cleanup.push(() => bus.close());
  const server = await startServer(registry, {
    port: 0,
    logger,
    fsm: checkout,
    sessionStore: new RedisSessionStore({ client: redis, prefix: `${prefix}session:` }),
    fsmStore: new RedisFsmStore({ client: redis, prefix: `${prefix}fsm:session:`, ttlMs: 24 * 60 * 60_000 }),
    workflowStore: new RedisFsmStore({ client: redis, prefix: `${prefix}fsm:handle:` }),
    eventStore: new RedisEventStore({ client: redis, prefix: `${prefix}events:` }),
    bus,
  });
  cleanup.push(() => server.close());
  return server;
}

describe('the scaling recipe (two instances on one Redis)', () => {
  it('starts, serves a session across both instances and stops with no warning or error logged', async () => {
    // The level a user gets by default (the test setup silences the log unless a test sets it).
    vi.stubEnv('MCP_FUSION_LOG', 'info');
    const prefix = uniquePrefix('scaling');
    const [a, b] = await Promise.all([instance(prefix), instance(prefix)]);
    await using client = await v2HttpClient(a.url);
    expect(texts(await client.callTool({ name: 'cart.add', arguments: {} }))[0]).toBe('added');
    // The session lives in Redis: the other instance serves it, in the workflow state the first one saved.
    const sessionId = client.transport?.sessionId;
    expect(sessionId).toEqual(expect.any(String));
    const response = await fetch(b.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': sessionId!,
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
    });
    expect(await response.text()).toContain('"cart.pay"');
    await client.close();
    await Promise.all([a.close(), b.close()]);
    expect(records.filter((r) => r.level === 'warn' || r.level === 'error')).toEqual([]);
  });
});
