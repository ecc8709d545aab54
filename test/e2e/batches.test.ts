import { describe, expect, it } from 'vitest';
import { createFusionApp, initFusion } from '../../src/index.js';
import { messagesOf, openSession, post } from '../_helpers/raw.js';

const f = initFusion();
let started = 0;
let releaseAll: () => void = () => {};
let gate = new Promise<void>((resolve) => (releaseAll = resolve));
const slow = f
  .query('slow')
  .describe('Waits until released')
  .handle(async () => {
    started++;
    await gate;
    return 'done';
  });
const echo = f
  .query('echo')
  .describe('Echoes its argument')
  .withString('text', 'What to echo')
  .handle(({ text }) => text);
const registry = () => f.registry().registerAll(slow, echo);
const call = (id: number, name: string, args: unknown) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});

describe('a legacy JSON-RPC batch obeys the per-message budgets', () => {
  it('counts every tools/call of a batch against maxInFlightCalls: a batch of 100 slow calls with a cap of 5 runs none', async () => {
    const server = createFusionApp(registry(), { limits: { maxInFlightCalls: 5 } });
    const sid = await openSession(server);
    const refused = await post(
      server,
      Array.from({ length: 100 }, (_, i) => call(i + 1, 'slow', {})),
      sid,
    );
    expect(refused.status).toBe(400);
    expect((await refused.json()).error.message).toMatchInlineSnapshot(
      `"Bad Request: this batch holds 100 tool calls, more than the 5 this server runs at once. Send at most 5 tool calls per batch."`,
    );
    expect(started).toBe(0);
    await server.close();
  });

  it('admits a batch that fits, then refuses one more call with 503 until the batch has answered', async () => {
    started = 0;
    gate = new Promise<void>((resolve) => (releaseAll = resolve));
    const server = createFusionApp(registry(), { limits: { maxInFlightCalls: 5 } });
    const sid = await openSession(server);
    const batch = post(
      server,
      Array.from({ length: 4 }, (_, i) => call(i + 1, 'slow', {})),
      sid,
    ).then(messagesOf);
    const refused = await post(server, [call(10, 'slow', {}), call(11, 'slow', {})], sid);
    expect([refused.status, refused.headers.get('retry-after')]).toEqual([503, '1']);
    const single = post(server, call(12, 'slow', {}), sid).then(messagesOf);
    const over = await post(server, call(13, 'echo', { text: 'x' }), sid);
    expect(over.status).toBe(503);
    releaseAll();
    expect((await batch).map((m) => m.id).sort()).toEqual([1, 2, 3, 4]);
    expect((await single).map((m) => m.id)).toEqual([12]);
    expect(started).toBe(5);
    const after = await messagesOf(await post(server, call(14, 'echo', { text: 'after' }), sid));
    expect(after[0].result.content[0].text).toBe('after');
    await server.close();
  });

  it('refuses a __proto__ key in the arguments of a call inside a batch as it refuses a single message, running nothing', async () => {
    const server = createFusionApp(registry());
    const sid = await openSession(server);
    const poisoned =
      '[' +
      JSON.stringify(call(1, 'echo', { text: 'a' })) +
      ',{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"b","__proto__":{"admin":true}}}}]';
    const single =
      '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"b","__proto__":{"admin":true}}}}';
    const headers = {
      host: '127.0.0.1',
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-session-id': sid,
      'mcp-protocol-version': '2025-11-25',
    };
    const inBatch = await server.fetch(
      new Request('http://127.0.0.1/mcp', { method: 'POST', headers, body: poisoned }),
    );
    const alone = await server.fetch(new Request('http://127.0.0.1/mcp', { method: 'POST', headers, body: single }));
    expect(inBatch.status).toBe(400);
    expect(await inBatch.json()).toEqual(await alone.json());
    expect(alone.status).toBe(400);
    await server.close();
  });
});
