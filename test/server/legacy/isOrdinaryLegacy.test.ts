import { isLegacyRequest } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createFusionApp, initFusion } from '../../../src/index.js';
import { isOrdinaryLegacy } from '../../../src/server/legacy/isOrdinaryLegacy.js';
import { texts, v2FetchClient } from '../../_helpers/clients.js';
import { call, tool } from '../_toolCall.js';

const LIVE = 'live-session';
const live = new Set([LIVE]);

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

describe('isOrdinaryLegacy', () => {
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
