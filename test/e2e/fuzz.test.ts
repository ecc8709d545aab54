import { InMemoryTransport, Server } from '@modelcontextprotocol/server';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { registry, workspaceOptions } from '../../examples/workspace/registry.js';
import { createFusionApp } from '../../src/index.js';
import { createTestClient } from '../../src/testing/index.js';
import { messagesOf, openSession, request } from '../_helpers/raw.js';

const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
const counts = { memory: 0, http: 0, toolArgs: 0, handshakes: 0 };
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);

beforeAll(() => process.on('unhandledRejection', onUnhandled));
afterAll(() => {
  process.off('unhandledRejection', onUnhandled);
  process.stderr.write(
    `fuzz seed ${seed}: ${counts.memory} in-memory messages, ${counts.http} HTTP bodies, ${counts.toolArgs} tool calls, ${counts.handshakes} hostile handshakes (total ${counts.memory + counts.http + counts.toolArgs + counts.handshakes})\n`,
  );
});

const methods = [
  'initialize',
  'ping',
  'tools/list',
  'tools/call',
  'resources/list',
  'resources/read',
  'prompts/get',
  'logging/setLevel',
  'completion/complete',
  'notifications/initialized',
  'notifications/cancelled',
  'no/such/method',
  '__proto__',
  'constructor',
  '',
];
const nasty = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'prototype', '\u0000', '\uD800', '\uFFFF', '👩‍👩‍👧', 'a'.repeat(10_000)),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
);
const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  v: fc.oneof(
    { depthSize: 'small' },
    fc.jsonValue({ maxDepth: 2 }),
    nasty,
    fc.dictionary(nasty, tie('v'), { maxKeys: 4 }),
    fc.array(tie('v'), { maxLength: 4 }),
  ),
})).v;
const deep = fc.integer({ min: 50, max: 2_000 }).map((n) => {
  let v: unknown = 1;
  for (let i = 0; i < n; i++) v = { a: v };
  return v;
});
const message = fc.record(
  {
    jsonrpc: fc.oneof(fc.constant('2.0'), value),
    id: fc.oneof(fc.integer({ min: 1, max: 1e9 }), fc.string({ maxLength: 8 }), fc.constant(null), value),
    method: fc.oneof(fc.constantFrom(...methods), value),
    params: fc.oneof(
      value,
      deep,
      fc.record({ name: fc.constantFrom('cart.add_item', 'sprints.create', 'tasks.update', 'nope'), arguments: value }),
    ),
  },
  { requiredKeys: [] },
);

function assertNoPollution(): void {
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(Object.keys(Object.prototype)).toEqual([]);
}

describe('fuzzing every entry point', () => {
  it('answers every in-memory request exactly once and never crashes', async () => {
    const server = new Server({ name: 'fuzz', version: '1' }, { capabilities: {} });
    registry.attachToServer(server, workspaceOptions());
    const [client, serverSide] = InMemoryTransport.createLinkedPair();
    const received: any[] = [];
    client.onmessage = (m) => received.push(m);
    await server.connect(serverSide);
    await client.start();
    await client.send({
      jsonrpc: '2.0',
      id: 'init',
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } },
    } as never);
    await client.send({ jsonrpc: '2.0', method: 'notifications/initialized' } as never);
    await fc.assert(
      fc.asyncProperty(message, async (m) => {
        counts.memory++;
        const before = received.length;
        const id = `fz-${counts.memory}`;
        // A well-formed envelope must be answered exactly once. Structurally invalid messages (params not an
        // object) are dropped by the SDK's in-memory and stdio transports; over HTTP they get a 400 (below).
        const envelope =
          m.params === undefined || (typeof m.params === 'object' && m.params !== null && !Array.isArray(m.params));
        const isRequest =
          typeof m.method === 'string' &&
          m.method !== '' &&
          !m.method.startsWith('notifications/') &&
          m.jsonrpc === '2.0' &&
          envelope;
        const sent = isRequest ? { ...m, id } : m;
        try {
          await client.send(sent as never);
        } catch {
          return; // the transport refused to send it: nothing reached the server
        }
        if (isRequest) {
          const deadline = Date.now() + 1_000;
          while (!received.slice(before).some((r) => r.id === id) && Date.now() < deadline)
            await new Promise((r) => setTimeout(r, 0));
          await new Promise((r) => setImmediate(r));
          const answers = received.slice(before).filter((r) => r.id === id);
          expect(answers).toHaveLength(1);
          expect('result' in answers[0] !== 'error' in answers[0]).toBe(true);
        } else await new Promise((r) => setImmediate(r));
      }),
      { numRuns: 4_000, seed },
    );
    // The server still serves a normal call afterwards.
    await client.send({
      jsonrpc: '2.0',
      id: 'final',
      method: 'tools/call',
      params: { name: 'sprints.list', arguments: {} },
    } as never);
    await vi.waitFor(() => expect(received.find((r) => r.id === 'final')?.result?.content?.[0]?.type).toBe('text'), {
      timeout: 5_000,
      interval: 5,
    });
    assertNoPollution();
    expect(unhandled).toEqual([]);
    await server.close();
  }, 120_000);

  it('answers every HTTP body with one well-formed response or a documented HTTP error', async () => {
    const app = createFusionApp(registry, workspaceOptions());
    const sid = await openSession(app);
    const body = fc.oneof(
      message.map((m) => JSON.stringify(m)),
      fc.string({ maxLength: 200 }),
      fc.constantFrom(
        '{',
        '[]',
        '[{"jsonrpc":"2.0"}]',
        'null',
        '"x"',
        '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
      ),
    );
    await fc.assert(
      fc.asyncProperty(
        body,
        fc.boolean(),
        fc.constantFrom('application/json', 'text/plain'),
        async (text, withSession, type) => {
          counts.http++;
          const headers: Record<string, string> = {
            'content-type': type,
            accept: 'application/json, text/event-stream',
            host: '127.0.0.1',
          };
          if (withSession) Object.assign(headers, { 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25' });
          const res = await app.fetch(new Request('http://127.0.0.1/mcp', { method: 'POST', headers, body: text }));
          expect([200, 202, 400, 403, 404, 405, 406, 413, 415]).toContain(res.status);
          if (res.status !== 202) {
            const messages = await messagesOf(res);
            for (const m of messages) expect(m.jsonrpc).toBe('2.0');
          } else await res.text();
        },
      ),
      { numRuns: 3_000, seed },
    );
    expect((await request(app, sid, 99, 'tools/list')).message.result.tools.length).toBeGreaterThan(0);
    assertNoPollution();
    expect(unhandled).toEqual([]);
    await app.close();
  }, 120_000);

  it('answers hostile Host headers, methods and initialize params with a 4xx or a session, never a 5xx', async () => {
    const app = createFusionApp(registry, {
      ...workspaceOptions(),
      limits: { maxSessions: 50, maxSessionsPerPrincipal: 5 },
    });
    const host = fc.oneof(
      fc.constantFrom(
        '127.0.0.1',
        'localhost:3000',
        'localhost:abc',
        'evil@localhost',
        '[::1]:1',
        '[::1',
        'a b',
        ':80',
        'localhost:99999',
      ),
      fc.string({ maxLength: 30 }),
    );
    const params = fc.oneof(
      value,
      deep,
      fc.record(
        {
          protocolVersion: fc.oneof(fc.constant('2025-11-25'), value),
          capabilities: fc.oneof(value, deep),
          clientInfo: fc.oneof(fc.constant({ name: 'f', version: '1' }), value),
        },
        { requiredKeys: [] },
      ),
    );
    await fc.assert(
      fc.asyncProperty(
        host,
        fc.constantFrom('POST', 'GET', 'DELETE', 'OPTIONS', 'PUT'),
        fc.constantFrom(undefined, '2025-11-25', '2026-07-28', 'garbage'),
        params,
        fc.integer({ min: 0, max: 9 }),
        async (h, method, version, p, peer) => {
          counts.handshakes++;
          let req: Request;
          try {
            const headers: Record<string, string> = {
              host: h,
              'content-type': 'application/json',
              accept: 'application/json, text/event-stream',
              ...(version === undefined ? {} : { 'mcp-protocol-version': version }),
            };
            req = new Request('http://127.0.0.1/mcp', {
              method,
              headers,
              ...(method === 'POST' || method === 'PUT'
                ? { body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: p }) }
                : {}),
            });
          } catch {
            return; // not a request a client could send (invalid header bytes)
          }
          const res = await app.fetch(req, { peer: `10.0.0.${peer}` });
          expect([200, 202, 204, 400, 403, 404, 405, 406, 413, 415, 429]).toContain(res.status);
          await res.text();
        },
      ),
      { numRuns: 1_500, seed },
    );
    expect(app.sessions.manager.count).toBeLessThanOrEqual(50);
    assertNoPollution();
    expect(unhandled).toEqual([]);
    await app.close();
  }, 120_000);

  it('turns random arguments to every example tool into a result, never a crash', async () => {
    await using t = await createTestClient(registry, workspaceOptions());
    const names = (await t.client.listTools()).tools.map((x) => x.name);
    const all = [...names, 'cart.checkout', 'cart.pay', 'cart.clear'];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...all), fc.dictionary(nasty, value, { maxKeys: 5 }), async (name, args) => {
        counts.toolArgs++;
        const result = await t.callTool(name, args);
        expect(Array.isArray(result.content)).toBe(true);
      }),
      { numRuns: 3_000, seed },
    );
    assertNoPollution();
    expect(unhandled).toEqual([]);
  }, 120_000);
});
