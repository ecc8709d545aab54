import type { ServerEvent } from '@modelcontextprotocol/server';
import { describe, expect, it, vi } from 'vitest';
import { RedisEventBus } from '../../src/redis/index.js';
import { createStderrLogger, type SessionNotification } from '../../src/index.js';
import { ready, redisClient, uniquePrefix } from './clients.js';
import { freePort } from './redisServer.js';
import { until } from '../_helpers/waitFor.js';

const publisherOf = new WeakMap<RedisEventBus, Awaited<ReturnType<typeof ready>>>();
const prefixOf = new WeakMap<RedisEventBus, string>();

async function bus(prefix: string, onError?: (e: unknown) => void): Promise<RedisEventBus> {
  const publisher = await ready(redisClient());
  const b = new RedisEventBus({ publisher, subscriber: redisClient(), prefix, ...(onError ? { onError } : {}) });
  await b.ready();
  publisherOf.set(b, publisher);
  prefixOf.set(b, prefix);
  return b;
}

describe('RedisEventBus', () => {
  it('delivers a listen-stream event once to every instance: here synchronously, elsewhere through Redis', async () => {
    const prefix = uniquePrefix('bus');
    const [a, b, c] = await Promise.all([bus(prefix), bus(prefix), bus(prefix)]);
    const seen: Record<string, ServerEvent[]> = { a: [], b: [], c: [] };
    a.subscribe((e) => seen.a!.push(e));
    b.subscribe((e) => seen.b!.push(e));
    const unsubscribe = c.subscribe((e) => seen.c!.push(e));
    a.publish({ kind: 'resource_updated', uri: 'fusion://fsm/checkout/che_1' });
    expect(seen.a).toEqual([{ kind: 'resource_updated', uri: 'fusion://fsm/checkout/che_1' }]);
    await until(() => seen.b!.length === 1 && seen.c!.length === 1, 'the event');
    unsubscribe();
    unsubscribe();
    b.publish({ kind: 'tools_list_changed' });
    await until(() => seen.a!.length === 2, 'the event');
    // Barrier: c's bus hears b's next event after the one before, had its listener still been there.
    const heardByC = vi.fn();
    c.subscribe(heardByC);
    b.publish({ kind: 'prompts_list_changed' });
    await until(() => heardByC.mock.calls.length === 1 && seen.a!.length === 3 && seen.b!.length === 3, 'the event');
    for (const events of [seen.a!, seen.b!]) events.pop();
    expect(seen).toEqual({
      a: [{ kind: 'resource_updated', uri: 'fusion://fsm/checkout/che_1' }, { kind: 'tools_list_changed' }],
      b: [{ kind: 'resource_updated', uri: 'fusion://fsm/checkout/che_1' }, { kind: 'tools_list_changed' }],
      c: [{ kind: 'resource_updated', uri: 'fusion://fsm/checkout/che_1' }],
    });
    await Promise.all([a.close(), b.close(), c.close()]);
  });

  it('carries legacy session notifications on their own channel, and the sessions view is the same bus', async () => {
    const prefix = uniquePrefix('bus');
    const [a, b] = await Promise.all([bus(prefix), bus(prefix)]);
    const events: ServerEvent[] = [];
    const got: Array<[string, SessionNotification]> = [];
    b.subscribe((e) => events.push(e));
    b.sessions.subscribe((id, n) => got.push([id, n]));
    a.publishSession('sid-1', { method: 'notifications/tools/list_changed' });
    a.sessions.publish('sid-2', { method: 'notifications/resources/updated', params: { uri: 'x://y' } });
    await until(() => got.length === 2, 'the event');
    expect(got).toEqual([
      ['sid-1', { method: 'notifications/tools/list_changed' }],
      ['sid-2', { method: 'notifications/resources/updated', params: { uri: 'x://y' } }],
    ]);
    expect(events).toEqual([]);
    await Promise.all([a.close(), b.close()]);
  });

  it('keeps prefixes apart', async () => {
    const [a, other] = await Promise.all([bus(uniquePrefix('bus')), bus(uniquePrefix('bus'))]);
    const seen = vi.fn();
    other.subscribe(seen);
    a.publish({ kind: 'tools_list_changed' });
    // Barrier: a bus with other's prefix publishing on a's connection; Redis delivers in the order it ran them.
    const sameConnection = new RedisEventBus({
      publisher: publisherOf.get(a)!,
      subscriber: redisClient(),
      prefix: prefixOf.get(other)!,
    });
    await sameConnection.ready();
    sameConnection.publish({ kind: 'prompts_list_changed' });
    await until(() => seen.mock.calls.length > 0, 'the event');
    expect(seen.mock.calls).toEqual([[{ kind: 'prompts_list_changed' }]]);
    await Promise.all([a.close(), other.close(), sameConnection.close()]);
  });

  it('never throws while Redis is unreachable: local listeners still get events, the rest waits for a first connection', async () => {
    const url = `redis://127.0.0.1:${await freePort()}`;
    const onError = vi.fn();
    const publisher = redisClient(url);
    const b = new RedisEventBus({ publisher, subscriber: redisClient(url), onError });
    const local = vi.fn();
    b.subscribe(local);
    b.sessions.subscribe(local);
    expect(() => b.publish({ kind: 'tools_list_changed' })).not.toThrow();
    expect(() => b.publishSession('s', { method: 'notifications/tools/list_changed' })).not.toThrow();
    expect(local).toHaveBeenCalledTimes(2);
    // The client itself reports the refused connection; the bus holds its publishes instead of failing each.
    await new Promise((resolve) => publisher.once('error', resolve));
    expect(onError).not.toHaveBeenCalled();
    await b.close();
  });

  it('without onError, logs each failure once to its logger (level from MCP_FUSION_LOG)', async () => {
    const saved = process.env.MCP_FUSION_LOG;
    process.env.MCP_FUSION_LOG = 'error';
    try {
      const lines: string[] = [];
      const b = new RedisEventBus({
        publisher: await ready(redisClient()),
        subscriber: await ready(redisClient()),
        prefix: uniquePrefix('bus'),
        logger: createStderrLogger((text) => lines.push(text)),
      });
      await b.ready();
      b.subscribe(() => {
        throw new Error('listener bug');
      });
      b.publish({ kind: 'tools_list_changed' });
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^\[mcp-fusion\] \S+ ERROR Redis event bus failed err="Error: listener bug"\n\s+at /);
      await b.close();
    } finally {
      process.env.MCP_FUSION_LOG = saved;
    }
  });

  it('isolates a throwing listener from the others', async () => {
    const onError = vi.fn();
    const b = await bus(uniquePrefix('bus'), onError);
    const after = vi.fn();
    b.subscribe(() => {
      throw new Error('listener bug');
    });
    b.subscribe(after);
    b.publish({ kind: 'tools_list_changed' });
    expect(after).toHaveBeenCalledOnce();
    expect(onError).toHaveBeenCalledWith(new Error('listener bug'));
    await b.close();
  });
});
