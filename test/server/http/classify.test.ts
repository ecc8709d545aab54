import { isJSONRPCRequest, isLegacyRequest, parseJSONRPCMessage } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createFusionApp, initFusion } from '../../../src/index.js';
import {
  admitModern,
  classifyRequest,
  EnvelopeMemory,
  isPlainRequest,
  type ClassifyParts,
} from '../../../src/server/http/classify.js';
import { texts, v2FetchClient } from '../../_helpers/clients.js';
import { call, tool } from '../_toolCall.js';

const LIVE = 'live-session';
const live = new Set([LIVE]);

/** The classification's legacy verdict, without the modern leg (`sessions`: the ids live here). */
function isOrdinaryLegacy(request: Request, body: unknown, sessions: ClassifyParts['sessions']): boolean {
  return classifyRequest(request, body, { sessions, envelopes: undefined }).era === 'legacy';
}

/** A POST of `body` (raw JSON-RPC, as a client wrote it) on the live session, with `headers` over the usual ones. */
function post(body: unknown, headers: Record<string, string | undefined> = {}): Request {
  const all: Record<string, string> = {};
  for (const [name, value] of Object.entries({
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-session-id': LIVE,
    'mcp-protocol-version': '2025-11-25',
    ...headers,
  }))
    if (value !== undefined) all[name] = value;
  return new Request('http://127.0.0.1/mcp', { method: 'POST', headers: all, body: JSON.stringify(body) });
}

describe('classifyRequest', () => {
  it('routes every request as the SDK’s classifier does, and decides the ordinary ones by hand', async () => {
    const cases: Array<[string, Request, boolean]> = [
      ['a tools/call', post(tool()), true],
      ['no version header', post(tool(), { 'mcp-protocol-version': undefined }), true],
      ['an older version header', post(tool(), { 'mcp-protocol-version': '2024-11-05' }), true],
      ['a string id', post(tool({ id: 'a' })), true],
      ['no params', post({ jsonrpc: '2.0', id: 2, method: 'tools/list' }), true],
      ['empty params', post(tool({ params: {} })), true],
      ['a progress token', post(tool({ params: { ...call, _meta: { progressToken: 'p' } } })), true],
      ['an integer progress token', post(tool({ params: { ...call, _meta: { progressToken: 7 } } })), true],
      ['an empty _meta', post(tool({ params: { ...call, _meta: {} } })), true],
      // A web `Headers` trims a value's spaces (as the SDK strips them).
      ['a version header with spaces', post(tool(), { 'mcp-protocol-version': ' 2025-11-25\t' }), true],
      ['a GET', new Request('http://127.0.0.1/mcp', { headers: { 'mcp-session-id': LIVE } }), true],
      ['a DELETE', new Request('http://127.0.0.1/mcp', { method: 'DELETE' }), true],
      // Left to the SDK (which may still call them legacy):
      ['an unknown session', post(tool(), { 'mcp-session-id': 'gone' }), false],
      ['no session', post(tool(), { 'mcp-session-id': undefined }), false],
      ['initialize', post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }), false],
      ['a modern version header', post(tool(), { 'mcp-protocol-version': '2026-07-28' }), false],
      ['an unknown version header', post(tool(), { 'mcp-protocol-version': 'next' }), false],
      ['an older unknown version header', post(tool(), { 'mcp-protocol-version': '2020-01-01' }), false],
      [
        'an envelope claim',
        post(tool({ params: { ...call, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } } })),
        false,
      ],
      ['a trace key in _meta', post(tool({ params: { ...call, _meta: { traceparent: '00-1-2-01' } } })), false],
      [
        'a related task',
        post(tool({ params: { ...call, _meta: { 'io.modelcontextprotocol/related-task': { taskId: 't' } } } })),
        false,
      ],
      ['a fractional progress token', post(tool({ params: { ...call, _meta: { progressToken: 1.5 } } })), false],
      ['a null _meta', post(tool({ params: { ...call, _meta: null } })), false],
      ['an extra top-level key', post(tool({ extra: 1 })), false],
      ['a fractional id', post(tool({ id: 1.5 })), false],
      ['an unsafe integer id', post(tool({ id: 2 ** 60 })), false],
      ['a null id', post(tool({ id: null })), false],
      ['no id (a notification)', post({ jsonrpc: '2.0', method: 'notifications/initialized' }), false],
      ['jsonrpc 1.0', post(tool({ jsonrpc: '1.0' })), false],
      ['a numeric method', post(tool({ method: 5 })), false],
      ['array params', post(tool({ params: [1] })), false],
      ['null params', post(tool({ params: null })), false],
      ['a response', post({ jsonrpc: '2.0', id: 1, result: {} }), false],
      ['a batch', post([tool()]), false],
      ['a JSON string', post('tools/call'), false],
      ['a JSON null', post(null), false],
    ];
    for (const [what, request, ordinary] of cases) {
      const body = request.method === 'POST' ? await request.clone().json() : undefined;
      const hand = isOrdinaryLegacy(request, body, live);
      const sdk = await isLegacyRequest(request, body);
      expect([what, hand]).toEqual([what, ordinary]);
      // The route taken (hand check, then the SDK when unsure) is the SDK's route: never legacy where it is not.
      expect([what, hand || sdk]).toEqual([what, sdk]);
    }
  });

  it('takes the hand path for the SDK client’s own legacy requests on its session', async () => {
    const f = initFusion();
    const app = createFusionApp(
      f.registry().registerAll(
        f
          .query('echo.say')
          .input(z.object({ text: z.string() }))
          .handle(async ({ text }) => `said ${text}`),
      ),
    );
    const seen: Array<{ method: string; ordinary: boolean }> = [];
    await using client = await v2FetchClient({
      async fetch(request) {
        if (request.method === 'POST') {
          const body = (await request.clone().json()) as { method?: string };
          seen.push({ method: String(body.method), ordinary: isOrdinaryLegacy(request, body, app.sessions) });
        }
        return app.fetch(request);
      },
    });
    await client.listTools();
    expect(texts(await client.callTool({ name: 'echo.say', arguments: { text: 'x' } }))).toEqual(['said x']);
    expect(seen).toEqual([
      { method: 'initialize', ordinary: false },
      { method: 'notifications/initialized', ordinary: false },
      { method: 'tools/list', ordinary: true },
      { method: 'tools/call', ordinary: true },
    ]);
    await app.close();
  });
});
/** A header read counter over `request`: each `get` of `name` counts (the other reads pass through). */
function countReads(request: Request, name: string): { request: Request; reads: () => number } {
  let reads = 0;
  const real = request.headers;
  const headers = new Proxy(real, {
    get(target, key) {
      if (key === 'get')
        return (asked: string) => {
          if (asked.toLowerCase() === name) reads++;
          return target.get(asked);
        };
      const value = Reflect.get(target, key, target) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  Object.defineProperty(request, 'headers', { value: headers });
  return { request, reads: () => reads };
}

describe('the one classification of a request', () => {
  it('reads the session id header once for a legacy call, from the front to its answer', async () => {
    const f = initFusion();
    const app = createFusionApp(
      f.registry().registerAll(
        f
          .query('echo.say')
          .input(z.object({ text: z.string() }))
          .handle(async ({ text }) => `said ${text}`),
      ),
    );
    const counts: Array<{ method: string; reads: number }> = [];
    await using client = await v2FetchClient({
      async fetch(request) {
        if (request.method !== 'POST') return app.fetch(request);
        const { method } = (await request.clone().json()) as { method: string };
        const counted = countReads(request, 'mcp-session-id');
        const response = await app.fetch(counted.request);
        await response.clone().text();
        counts.push({ method, reads: counted.reads() });
        return response;
      },
    });
    expect(texts(await client.callTool({ name: 'echo.say', arguments: { text: 'x' } }))).toEqual(['said x']);
    expect(counts.filter((c) => c.method === 'tools/call')).toEqual([{ method: 'tools/call', reads: 1 }]);
    await app.close();
  });

  it('remembers the envelopes the SDK admitted per app, never across apps', () => {
    const envelope = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'classify', version: '1' },
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    const body = { jsonrpc: '2.0', id: 3, method: 'tools/list', params: { _meta: envelope } };
    const request = () =>
      new Request('http://127.0.0.1/mcp', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'tools/list',
        },
        body: JSON.stringify(body),
      });
    const one = new EnvelopeMemory();
    const other = new EnvelopeMemory();
    expect(admitModern(request(), body, one)?.classification).toEqual({ era: 'modern', revision: '2026-07-28' });
    expect([one.size, other.size]).toEqual([1, 0]);
    // The second app admits the same request through the SDK's classifier, as the first did the first time.
    const classified = classifyRequest(request(), body, { sessions: new Set(), envelopes: other });
    expect([classified.era, classified.admitted?.message.id, classified.sessionId]).toEqual(['modern', 3, null]);
    expect(other.size).toBe(1);
  });
});

describe('isPlainRequest', () => {
  it('takes only requests the SDK’s schema takes, as they are, and leaves every doubtful body to it', () => {
    const cases: Array<[string, unknown, boolean]> = [
      ['a tools/call', tool(), true],
      ['a string id', tool({ id: 'a' }), true],
      ['a negative id', tool({ id: -3 }), true],
      ['no params', { jsonrpc: '2.0', id: 2, method: 'tools/list' }, true],
      ['empty params', tool({ params: {} }), true],
      ['a progress token', tool({ params: { ...call, _meta: { progressToken: 'p' } } }), true],
      ['an empty _meta', tool({ params: { ...call, _meta: {} } }), true],
      ['initialize (the caller decides)', { jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }, true],
      [
        'an envelope claim',
        tool({ params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } } }),
        false,
      ],
      ['a trace key in _meta', tool({ params: { ...call, _meta: { traceparent: '00-1-2-01' } } }), false],
      ['a fractional progress token', tool({ params: { ...call, _meta: { progressToken: 1.5 } } }), false],
      ['an array _meta', tool({ params: { ...call, _meta: [] } }), false],
      ['an extra key', tool({ extra: 1 }), false],
      ['a fractional id', tool({ id: 1.5 }), false],
      ['an unsafe integer id', tool({ id: 2 ** 60 }), false],
      ['a null id', tool({ id: null }), false],
      ['no id', { jsonrpc: '2.0', method: 'notifications/initialized' }, false],
      ['jsonrpc 1.0', tool({ jsonrpc: '1.0' }), false],
      ['a numeric method', tool({ method: 5 }), false],
      ['array params', tool({ params: [1] }), false],
      ['null params', tool({ params: null }), false],
      ['a response', { jsonrpc: '2.0', id: 1, result: {} }, false],
      ['a batch', [tool()], false],
      ['a string', 'tools/call', false],
      ['null', null, false],
      ['an object without a prototype', Object.assign(Object.create(null), tool()), false],
    ];
    for (const [what, body, plain] of cases) {
      expect([what, isPlainRequest(body)]).toEqual([what, plain]);
      // What the hand check takes, the SDK's schema takes too, unchanged.
      if (plain) {
        expect([what, isJSONRPCRequest(body)]).toEqual([what, true]);
        expect([what, parseJSONRPCMessage(body)]).toEqual([what, body]);
      }
    }
  });
});
