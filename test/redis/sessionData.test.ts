import { describe, expect, it } from 'vitest';
import { createFusionApp } from '../../src/index.js';
import { RedisSessionStore } from '../../src/redis/index.js';
import { openSession, request } from '../_helpers/raw.js';
import { prefsRegistry } from '../_helpers/prefs.js';
import { ready, redisClient, uniquePrefix } from './clients.js';

describe('per-session data on the Redis session store', () => {
  it('follows a legacy session to another instance and survives both instances restarting', async () => {
    const prefix = uniquePrefix('data');
    const client = await ready(redisClient());
    const make = () => createFusionApp(prefsRegistry, { sessionStore: new RedisSessionStore({ client, prefix }) });
    const a = make();
    const b = make();
    const sid = await openSession(a);
    await request(a, sid, 1, 'tools/call', { name: 'prefs.set', arguments: { locale: 'ja' } });
    const onB = await request(b, sid, 2, 'tools/call', { name: 'prefs.get', arguments: {} });
    expect(onB.message.result.content[0].text).toBe(`locale=ja key=s:${sid}`);
    // The data is a record of its own in Redis, beside the session record, with a TTL.
    const keys = (await client.keys(`${prefix}*`)).sort();
    expect(keys).toEqual([`${prefix}{${sid}}`, `${prefix}{fusion-data:s:${sid}}`].sort());
    expect(await client.pttl(`${prefix}{fusion-data:s:${sid}}`)).toBeGreaterThan(0);
    await Promise.all([a.close(), b.close()]);
    const c = make();
    const after = await request(c, sid, 3, 'tools/call', { name: 'prefs.get', arguments: {} });
    expect(after.message.result.content[0].text).toBe(`locale=ja key=s:${sid}`);
    await c.close();
  });
});
