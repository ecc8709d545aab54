import { afterEach, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { initFusion, MemoryRateLimitStore } from '../../src/index.js';
import { createClock } from '../../src/testing/index.js';
import { httpServer, texts, v2HttpClientFrom, type TestClient } from '../_helpers/clients.js';
import { untilAborted } from '../_helpers/untilAborted.js';
import { fetchFrom } from '../_helpers/peerFetch.js';

const f = initFusion();
const anything = { '~standard': { version: 1, vendor: 'test', validate: (value: unknown) => ({ value }) } } as any;
const request = (client: Client, method: string, params: Record<string, unknown>): Promise<any> =>
  client.request({ method, params } as any, anything);

const registry = () =>
  f.registry().registerAll(
    f.query('notes.list').handle(() => 'notes'),
    f
      .action('slow')
      .task({ pollIntervalMs: 10 })
      .handle((_input, _ctx, extra) => untilAborted(extra.signal)),
  );

const PER_MINUTE = { max: 5, windowMs: 60_000 };
/** Rate-limit windows on a test clock that stands still: a refusal's wait is the whole window, however slow the machine. */
const windows = (clock: { now: () => number }) => new MemoryRateLimitStore({ now: clock.now });
const REFUSED =
  /^Tool "notes\.list" was not run: rate limit reached \(5 tool calls per 60 s for this network address, every session from it together\)\. Retry after 60 s; nothing was done\.$/;

/** The JSON-RPC message of an answer: a JSON body, or the last `data:` of an SSE one. */
const messageOf = async (response: Response): Promise<any> => {
  const text = await response.text();
  const data = text
    .split('\n')
    .filter((line) => line.startsWith('data: ') && line.length > 6)
    .map((line) => line.slice(6));
  return JSON.parse(data.at(-1) ?? text);
};

/** Clients opened by a test, closed after it. */
const opened: TestClient[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((c) => c[Symbol.asyncDispose]()));
});
const clientFrom = async (url: string, peer: string, mode: 'legacy' | 'auto' = 'legacy'): Promise<TestClient> => {
  const client = await v2HttpClientFrom(url, peer, mode);
  opened.push(client);
  return client;
};

describe('the network peer is the anonymous principal (HTTP)', () => {
  it('an IPv6 /64 rotating addresses behind a trusted proxy is refused after 5 calls a minute; the next /64 is not', async () => {
    const clock = createClock();
    const peers = { trustedProxies: ['127.0.0.1'] };
    await using srv = await httpServer(registry(), { rateLimit: PER_MINUTE, peers, rateLimitStore: windows(clock) });
    let n = 0;
    const { fetch: direct, close } = fetchFrom('127.0.0.1');
    // A proxy on 127.0.0.1 forwarding a client that takes a new address of its /64 for every request.
    const rotating = (prefix: string) => (url: string | URL, init?: RequestInit) => {
      const headers = new Headers(init?.headers);
      headers.set('x-forwarded-for', `6.6.6.6, ${prefix}${(++n).toString(16)}`);
      return direct(url, { ...init, headers });
    };
    try {
      const { Client, StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
      const connect = async (prefix: string, mode: 'legacy' | 'auto') => {
        const client = new Client(
          { name: 'rotating', version: '1' },
          mode === 'auto' ? { versionNegotiation: { mode } } : {},
        );
        await client.connect(new StreamableHTTPClientTransport(new URL(srv.url), { fetch: rotating(prefix) }));
        return client;
      };
      // Modern requests (each its own exchange) and legacy sessions, every one from a new address of the /64.
      const results = [];
      for (let i = 0; i < 7; i++) {
        const client = await connect('2001:db8:1:2::', i % 2 === 0 ? 'auto' : 'legacy');
        results.push(await client.callTool({ name: 'notes.list', arguments: {} }));
        await client.close();
      }
      expect(results.map((r) => r.isError === true)).toEqual([false, false, false, false, false, true, true]);
      expect(texts(results[5]!)[0]).toMatch(REFUSED);
      expect((results[6]!._meta as Record<string, number>)['fusion/retryAfterMs']).toBe(60_000);
      const neighbour = await connect('2001:db8:1:3::', 'auto');
      expect(texts(await neighbour.callTool({ name: 'notes.list', arguments: {} }))).toEqual(['notes']);
      await neighbour.close();
    } finally {
      close();
    }
  });

  it('a client rotating legacy sessions is refused after 5 calls a minute; another address is served', async () => {
    const clock = createClock();
    await using srv = await httpServer(registry(), { rateLimit: PER_MINUTE, rateLimitStore: windows(clock) });
    const answers = [];
    for (let i = 0; i < 7; i++) {
      // A new session (and connection) for every call, as a client refused by its session's count would open.
      const client = await clientFrom(srv.url, '127.0.0.2');
      answers.push(await client.callTool({ name: 'notes.list', arguments: {} }));
    }
    expect(answers.map((r) => r.isError === true)).toEqual([false, false, false, false, false, true, true]);
    expect(texts(answers[6]!)[0]).toMatch(REFUSED);
    const other = await clientFrom(srv.url, '127.0.0.3');
    expect(texts(await other.callTool({ name: 'notes.list', arguments: {} }))).toEqual(['notes']);
  });

  it('an anonymous client opening new sessions does not reset its task budget', async () => {
    await using srv = await httpServer(registry(), { drainMs: 0, tasks: { budgets: { maxActivePerPrincipal: 2 } } });
    const first = await clientFrom(srv.url, '127.0.0.2');
    for (let i = 0; i < 2; i++)
      expect((await request(first, 'tools/call', { name: 'slow', arguments: {}, task: {} })).task.status).toBe(
        'working',
      );
    const second = await clientFrom(srv.url, '127.0.0.2');
    const refused = await request(second, 'tools/call', { name: 'slow', arguments: {}, task: {} });
    expect(refused).toEqual({
      isError: true,
      content: [
        {
          type: 'text',
          text: 'Cannot start "slow" as a task: you already have 2 active tasks (the limit). Wait for one to finish (tasks/get) or cancel one (tasks/cancel), then call again.',
        },
      ],
    });
    const other = await clientFrom(srv.url, '127.0.0.3');
    expect((await request(other, 'tools/call', { name: 'slow', arguments: {}, task: {} })).task.status).toBe('working');
  });

  it("a session in its handshake is not evicted while another host's sessions flood the server", async () => {
    await using srv = await httpServer(registry(), { limits: { maxSessions: 4 } });
    const { fetch: waiting, close } = fetchFrom('127.0.0.3');
    const post = (body: unknown, sid?: string) =>
      waiting(srv.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...(sid === undefined ? {} : { 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25' }),
        },
        body: JSON.stringify(body),
      });
    try {
      const init = await post({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'slow', version: '1' } },
      });
      const sid = init.headers.get('mcp-session-id')!;
      expect([init.status, (await messageOf(init)).result.protocolVersion]).toEqual([200, '2025-11-25']);
      // A flood of sessions, one per address of another host (127.0.0.10 … 127.0.0.29): every one fills the budget.
      for (let i = 10; i < 30; i++) {
        const client = await clientFrom(srv.url, `127.0.0.${i}`);
        expect(texts(await client.callTool({ name: 'notes.list', arguments: {} }))).toEqual(['notes']);
      }
      expect(srv.app!.sessions.manager.count).toBe(4);
      expect((await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, sid)).status).toBe(202);
      const listed = await post({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, sid);
      expect(listed.status).toBe(200);
      expect((await messageOf(listed)).result.tools.map((t: { name: string }) => t.name)).toEqual([
        'notes.list',
        'slow',
      ]);
    } finally {
      close();
    }
  });
});
