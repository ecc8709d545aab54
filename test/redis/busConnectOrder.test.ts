import type { ServerEvent } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Logger } from '../../src/index.js';
import { RedisEventBus } from '../../src/redis/index.js';
import { until } from '../_helpers/waitFor.js';
import { ready, redisClient, uniquePrefix } from './clients.js';
import { startRedisServer } from './redisServer.js';

type LogRecord = { level: keyof Logger; message: string; fields: Record<string, unknown> };

function memoryLogger(): { logger: Logger; records: LogRecord[] } {
  const records: LogRecord[] = [];
  const at = (level: keyof Logger) => (fields: Record<string, unknown>, message: string) =>
    void records.push({ level, message, fields });
  return { logger: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') }, records };
}

afterEach(() => void vi.unstubAllEnvs());

describe('RedisEventBus created before its clients connect', () => {
  it('holds a publish until the publisher connects, subscribes once the subscriber does, and logs nothing', async () => {
    // The level a user gets by default (the test setup silences the log unless a test sets it).
    vi.stubEnv('MCP_FUSION_LOG', 'info');
    const prefix = uniquePrefix('order');
    const { logger, records } = memoryLogger();
    // Fail-fast clients (no offline queue) that have not connected: any command now would reject at once.
    const publisher = redisClient(undefined, { lazyConnect: true });
    const subscriber = redisClient(undefined, { lazyConnect: true });
    expect([publisher.status, subscriber.status]).toEqual(['wait', 'wait']);
    const early = new RedisEventBus({ publisher, subscriber, prefix, logger });
    // Another instance, connected, hears what the early bus publishes.
    const other = new RedisEventBus({ publisher: await ready(redisClient()), subscriber: redisClient(), prefix });
    await other.ready();
    const heard: ServerEvent[] = [];
    other.subscribe((e) => heard.push(e));
    early.publish({ kind: 'tools_list_changed' });
    await until(() => heard.length === 1, 'the event published before the publisher connected');
    expect(heard).toEqual([{ kind: 'tools_list_changed' }]);
    // The early bus receives too, once its subscriber connected and subscribed.
    await early.ready();
    const received: ServerEvent[] = [];
    early.subscribe((e) => received.push(e));
    other.publish({ kind: 'resource_updated', uri: 'x://y' });
    await until(() => received.length === 1, 'the event from the other instance');
    expect(received).toEqual([{ kind: 'resource_updated', uri: 'x://y' }]);
    await Promise.all([early.close(), other.close()]);
    expect(records).toEqual([]);
  });

  it('sends what waited in order once the publisher connected, with a subscriber still connecting', async () => {
    const prefix = uniquePrefix('order');
    const errors: unknown[] = [];
    const publisher = redisClient(undefined, { lazyConnect: true });
    const early = new RedisEventBus({ publisher, subscriber: redisClient(), prefix, onError: (e) => errors.push(e) });
    const other = new RedisEventBus({ publisher: await ready(redisClient()), subscriber: redisClient(), prefix });
    await Promise.all([early.ready(), other.ready()]);
    const heard: string[] = [];
    other.sessions.subscribe((id) => heard.push(id));
    for (const id of ['s1', 's2', 's3']) early.publishSession(id, { method: 'notifications/tools/list_changed' });
    await until(() => heard.length === 3, 'three session notifications');
    expect(heard).toEqual(['s1', 's2', 's3']);
    expect(errors).toEqual([]);
    await Promise.all([early.close(), other.close()]);
  });
});

describe('RedisEventBus started before Redis', () => {
  it('waits for Redis to come up, then subscribes and sends what was published meanwhile', async () => {
    vi.stubEnv('MCP_FUSION_LOG', 'info');
    const { logger, records } = memoryLogger();
    const server = await startRedisServer();
    await server.stop();
    const prefix = uniquePrefix('late');
    const publisher = redisClient(server.url);
    const early = new RedisEventBus({ publisher, subscriber: redisClient(server.url), prefix, logger });
    early.publish({ kind: 'tools_list_changed' });
    await new Promise((resolve) => publisher.once('error', resolve));
    await server.start();
    const other = new RedisEventBus({
      publisher: await ready(redisClient(server.url)),
      subscriber: redisClient(server.url),
      prefix,
    });
    await Promise.all([early.ready(), other.ready()]);
    const heard: ServerEvent[] = [];
    other.subscribe((e) => heard.push(e));
    early.publish({ kind: 'prompts_list_changed' });
    await until(() => heard.some((e) => e.kind === 'prompts_list_changed'), 'an event of the bus that started first');
    // The event published before Redis came up went out once the publisher connected: heard if \`other\` was
    // subscribed by then (delivery is at most once), and never after the later one.
    expect(heard.at(-1)).toEqual({ kind: 'prompts_list_changed' });
    expect(heard.length === 1 || heard[0]!.kind === 'tools_list_changed').toBe(true);
    await Promise.all([early.close(), other.close()]);
    await server.stop();
    expect(records).toEqual([]);
  });
});
