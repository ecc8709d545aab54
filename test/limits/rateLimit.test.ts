import { describe, expect, it } from 'vitest';
import { createFusionApp, initFusion, MemoryRateLimitStore, type RateLimitStore } from '../../src/index.js';
import { createTestClient } from '../../src/testing/index.js';
import { texts } from '../_helpers/clients.js';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

function registry() {
  const f = initFusion();
  return f.registry().registerAll(
    f.query('notes.list').handle(() => 'notes'),
    f
      .mutation('mail.send')
      .rateLimit({ max: 1, windowMs: 10_000 })
      .handle(() => 'sent'),
  );
}

describe('rate limits', () => {
  it('refuses calls past the server-wide limit with an isError saying when to retry, per session without authentication', async () => {
    let now = 1_000_000;
    const store = new MemoryRateLimitStore({ now: () => now });
    const options = { rateLimit: { max: 2, windowMs: 60_000 }, rateLimitStore: store };
    const reg = registry();
    await using a = await createTestClient(reg, options);
    await using b = await createTestClient(reg, options);
    expect((await a.callTool('notes.list')).isError).not.toBe(true);
    expect((await a.callTool('notes.list')).isError).not.toBe(true);
    now += 15_000;
    const refused = await a.callTool('notes.list');
    expect(refused.isError).toBe(true);
    expect(texts(refused)).toEqual([
      'Tool "notes.list" was not run: rate limit reached (2 tool calls per 60 s for this session). Retry after 45 s; nothing was done.',
    ]);
    expect(refused._meta).toEqual({
      'fusion/retryAfterMs': 45_000,
      'fusion/rateLimit': { max: 2, windowMs: 60_000, scope: 'server', retryAfterMs: 45_000 },
    });
    expect((await b.callTool('notes.list')).isError, 'another session has its own count').not.toBe(true);
    now += 45_000;
    expect((await a.callTool('notes.list')).isError, 'a new window').not.toBe(true);
  });

  it("applies a tool's own .rateLimit() to that tool only", async () => {
    await using t = await createTestClient(registry());
    expect(texts(await t.callTool('mail.send'))).toEqual(['sent']);
    const refused = await t.callTool('mail.send');
    expect(refused.isError).toBe(true);
    expect(texts(refused)[0]).toMatch(
      /^Tool "mail.send" was not run: rate limit reached \(1 call of "mail.send" per 10 s for this session\)\. Retry after (9|10) s; nothing was done\.$/,
    );
    expect((refused._meta as { 'fusion/rateLimit': { scope: string } })['fusion/rateLimit'].scope).toBe('tool');
    expect(texts(await t.callTool('notes.list'))).toEqual(['notes']);
  });

  it('counts per principal: two sessions of one authenticated user share the count, another user has its own', async () => {
    const app = createFusionApp(registry(), { rateLimit: { max: 2, windowMs: 60_000 } });
    const clientAs = async (sub: string) => {
      const client = new Client({ name: sub, version: '1' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), {
          fetch: (url, init) => {
            const request = new Request(url, init);
            request.headers.set('host', '127.0.0.1');
            return app.fetch(request, {
              authInfo: { token: 't', clientId: 'app', scopes: [], extra: { sub, iss: 'https://id.example' } },
            });
          },
        }),
      );
      return client;
    };
    const [alice1, alice2, bob] = [await clientAs('alice'), await clientAs('alice'), await clientAs('bob')];
    try {
      await alice1.callTool({ name: 'notes.list', arguments: {} });
      await alice2.callTool({ name: 'notes.list', arguments: {} });
      const refused = await alice1.callTool({ name: 'notes.list', arguments: {} });
      expect(texts(refused)[0]).toContain('(2 tool calls per 60 s for this user)');
      expect((await bob.callTool({ name: 'notes.list', arguments: {} })).isError).not.toBe(true);
    } finally {
      await Promise.all([alice1.close(), alice2.close(), bob.close()]);
      await app.close();
    }
  });

  it('refuses the call, without running it, when the store fails, and says to retry', async () => {
    const broken: RateLimitStore = { hit: () => Promise.reject(new Error('connection refused')) };
    await using t = await createTestClient(registry(), {
      rateLimit: { max: 5, windowMs: 1_000 },
      rateLimitStore: broken,
    });
    const refused = await t.callTool('notes.list');
    expect(texts(refused)).toEqual([
      'Tool "notes.list" was not run: the rate-limit store is unavailable (connection refused), so the call could not be counted. Nothing was done; try again in a few seconds.',
    ]);
    expect(refused._meta).toEqual({ 'fusion/retryAfterMs': 1_000 });
  });

  it('rejects a malformed limit when the tool is built', () => {
    const f = initFusion();
    expect(() => f.query('x').rateLimit({ max: 0, windowMs: 1_000 })).toThrow(
      'Tool "x" has rate limit {"max":0,"windowMs":1000}; give { max, windowMs } with a positive whole max and a positive window in milliseconds, e.g. { max: 60, windowMs: 60_000 }.',
    );
  });
});
