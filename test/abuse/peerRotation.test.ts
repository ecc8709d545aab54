import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { texts, v2HttpClientFrom } from '../_helpers/clients.js';
import { fetchFrom } from '../_helpers/peerFetch.js';
import { startRuntimeChild, type RuntimeChild } from './_runtimeChild.js';

/**
 * Issue #42's rotation attacks against a child server at a 256 MiB heap (test/abuse/fixtures/rateLimited.ts:
 * 5 calls a minute, a trusted proxy on 127.0.0.1): an IPv6 host rotating addresses of its /64, and a client
 * rotating legacy sessions. Each is refused past the limit with a text that says when to retry, the server
 * lives, and another peer is served. (The same cases on a test clock, in process: test/e2e/peerPrincipal.)
 * One child for both: their peers differ (a forwarded /64 and its neighbour; 127.0.0.2 and 127.0.0.3), so
 * neither test's calls count against the other's.
 */
const REFUSED =
  /^Tool "notes\.list" was not run: rate limit reached \(5 tool calls per 60 s for this network address, every session from it together\)\. Retry after \d+ s; nothing was done\.$/;

const call = (client: Client) => client.callTool({ name: 'notes.list', arguments: {} });

describe('peer rotation against a 256 MiB child (#42)', () => {
  let child: RuntimeChild;
  beforeAll(async () => {
    child = await startRuntimeChild('rateLimited');
  });
  afterAll(() => child?.[Symbol.asyncDispose]());

  it('an IPv6 /64 rotating addresses is refused on its 6th call a minute; the next /64 is served', async () => {
    const { fetch: direct, close } = fetchFrom('127.0.0.1');
    let n = 0;
    // The trusted proxy forwards a client that takes a new address of its /64 for every request.
    const rotating = (prefix: string) => (url: string | URL, init?: RequestInit) => {
      const headers = new Headers(init?.headers);
      headers.set('x-forwarded-for', `${prefix}${(++n).toString(16)}`);
      return direct(url, { ...init, headers });
    };
    const connect = async (prefix: string, mode: 'legacy' | 'auto') => {
      const client = new Client(
        { name: 'rotating', version: '1' },
        mode === 'auto' ? { versionNegotiation: { mode } } : {},
      );
      await client.connect(new StreamableHTTPClientTransport(new URL(child.url), { fetch: rotating(prefix) }));
      return client;
    };
    try {
      const results = [];
      for (let i = 0; i < 8; i++) {
        const client = await connect('2001:db8:7:1::', i % 2 === 0 ? 'auto' : 'legacy');
        results.push(await call(client));
        await client.close();
      }
      expect(results.map((r) => r.isError === true)).toEqual([false, false, false, false, false, true, true, true]);
      for (const refused of results.slice(5)) expect(texts(refused)[0]).toMatch(REFUSED);
      const neighbour = await connect('2001:db8:7:2::', 'auto');
      expect(texts(await call(neighbour))).toEqual(['notes']);
      await neighbour.close();
      expect(child.alive()).toBe(true);
    } finally {
      close();
    }
  });

  it('a client rotating legacy sessions is refused on its 6th call a minute; another address is served', async () => {
    const results = [];
    for (let i = 0; i < 8; i++) {
      // A new session (and connection) for every call, as a client refused by its session's count would open.
      await using client = await v2HttpClientFrom(child.url, '127.0.0.2');
      results.push(await call(client));
    }
    expect(results.map((r) => r.isError === true)).toEqual([false, false, false, false, false, true, true, true]);
    for (const refused of results.slice(5)) expect(texts(refused)[0]).toMatch(REFUSED);
    await using other = await v2HttpClientFrom(child.url, '127.0.0.3');
    expect(texts(await call(other))).toEqual(['notes']);
    expect(child.alive()).toBe(true);
  });
});
