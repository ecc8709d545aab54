import { createMcpHandler } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { initFusion } from '../../../src/index.js';
import { buildServer } from '../../../src/server/buildServer.js';
import { jsonAnswerText } from '../../../src/server/http/jsonAnswer.js';
import { ModernDispatcher } from '../../../src/server/modern/ModernDispatcher.js';
import { messagesOf } from '../../_helpers/raw.js';

const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** Calls of `work.hold` wait here until the test releases them. */
const held = new Map<string, () => void>();
const seen: Array<{ tag: string; requestId: string | number; aborted?: boolean }> = [];

function registryOf() {
  const f = initFusion();
  return f.registry().registerAll(
    f
      .query('echo.say')
      .input(z.object({ text: z.string() }))
      .handle(async ({ text }) => `said ${text}`),
    f
      .query('work.hold')
      .input(z.object({ tag: z.string() }))
      .handle(async ({ tag }, _ctx, extra) => {
        const entry = { tag, requestId: extra.requestId, aborted: false };
        seen.push(entry);
        await new Promise<void>((resolve) => {
          held.set(tag, resolve);
          extra.signal.addEventListener('abort', () => {
            entry.aborted = true;
            resolve();
          });
        });
        return `held ${tag}`;
      }),
    f.query('work.progress').handle(async (_i, _c, extra) => {
      for (let i = 1; i <= 2; i++) await extra.progress(i, 2, `step ${i}`);
      return 'done';
    }),
  );
}

/** The dispatcher over a runtime, the SDK's per-request handler over the same runtime, and its factory count. */
function setup() {
  const runtime = registryOf().runtime({});
  let built = 0;
  const perRequest = createMcpHandler(
    () => {
      built++;
      return buildServer(runtime, {}, 'modern').instance;
    },
    { legacy: 'reject' },
  );
  const reference = createMcpHandler(() => buildServer(runtime, {}, 'modern').instance, { legacy: 'reject' });
  return { dispatcher: new ModernDispatcher(runtime, {}, perRequest), reference, built: () => built };
}

function modernRequest(
  body: { id?: unknown; method: string; params?: Record<string, unknown> },
  options: { signal?: AbortSignal; headers?: Record<string, string> } = {},
): Request {
  const params = { ...body.params, _meta: { ...(body.params?._meta as object | undefined), ...ENVELOPE } };
  const name = body.method === 'tools/call' ? (params as { name?: string }).name : undefined;
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': body.method,
    ...(name !== undefined ? { 'mcp-name': name } : {}),
    ...options.headers,
  };
  const init: RequestInit = { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', ...body, params }) };
  if (options.signal !== undefined) init.signal = options.signal;
  return new Request('http://127.0.0.1/mcp', init);
}

async function serve(
  handler: { fetch(r: Request, o?: { parsedBody?: unknown }): Promise<Response> },
  request: Request,
) {
  const parsedBody: unknown = await request.clone().json();
  const response = await handler.fetch(request, { parsedBody });
  return { status: response.status, type: response.headers.get('content-type'), messages: await messagesOf(response) };
}

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

describe('the modern dispatcher', () => {
  it('answers ordinary requests exactly as the SDK’s per-request handler does, without building a server', async () => {
    const { dispatcher, reference, built } = setup();
    const cases = [
      { id: 1, method: 'server/discover' },
      { id: 2, method: 'tools/list' },
      { id: 'a', method: 'tools/call', params: { name: 'echo.say', arguments: { text: 'hi' } } },
      { id: 3, method: 'tools/call', params: { name: 'echo.say', arguments: { text: 7 } } },
      { id: 4, method: 'tools/call', params: { name: 'no.such', arguments: {} } },
      { id: 5, method: 'tools/call', params: { name: 'work.progress', arguments: {}, _meta: { progressToken: 'p' } } },
      { id: 6, method: 'ping' },
      { id: 7, method: 'no/such/method' },
    ];
    for (const body of cases) {
      const mine = await serve(dispatcher, modernRequest(body));
      const theirs = await serve(reference, modernRequest(body));
      expect({ method: body.method, ...mine }).toEqual({ method: body.method, ...theirs });
    }
    expect((await serve(dispatcher, modernRequest(cases[2]!))).messages[0].result.content).toEqual([
      { type: 'text', text: 'said hi' },
    ]);
    // The progress call streams: two notifications, then its result.
    expect((await serve(dispatcher, modernRequest(cases[5]!))).messages.map((m) => m.method ?? m.id)).toEqual([
      'notifications/progress',
      'notifications/progress',
      5,
    ]);
    expect(built()).toBe(0);
    await dispatcher.close();
  });

  it('answers a one-message result as a JSON answer, written from its text with no stream', async () => {
    const { dispatcher } = setup();
    const request = modernRequest({
      id: 1,
      method: 'tools/call',
      params: { name: 'echo.say', arguments: { text: 'j' } },
    });
    const answer = jsonAnswerText(await dispatcher.fetch(request, { parsedBody: await request.clone().json() }));
    expect(answer).toMatchObject({ status: 200, headers: { 'content-type': 'application/json' } });
    expect(JSON.parse(answer!.text)).toMatchObject({
      jsonrpc: '2.0',
      id: 1,
      result: { content: [{ type: 'text', text: 'said j' }], resultType: 'complete' },
    });
    await dispatcher.close();
  });

  it('admits by hand only what the SDK classifies as its own, and answers every malformed case as the SDK does', async () => {
    const { dispatcher, reference } = setup();
    const call = { name: 'echo.say', arguments: { text: 'x' } };
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'echo.say',
    };
    const raw =
      (body: Record<string, unknown>, extra: Record<string, string> = {}) =>
      () =>
        new Request('http://127.0.0.1/mcp', {
          method: 'POST',
          headers: { ...headers, ...extra },
          body: JSON.stringify({ jsonrpc: '2.0', method: 'tools/call', ...body }),
        });
    const withMeta = (meta: Record<string, unknown>, id: unknown = 1) =>
      raw({ id, params: { ...call, _meta: { ...ENVELOPE, ...meta } } });
    const cases: Array<[string, () => Request, boolean]> = [
      ['well-formed', withMeta({}), true],
      ['a progress token', withMeta({ progressToken: 5 }), true],
      [
        'a trace key in _meta',
        withMeta({ traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' }),
        true,
      ],
      ['a log level', withMeta({ 'io.modelcontextprotocol/logLevel': 'info' }), true],
      ['a related task', withMeta({ 'io.modelcontextprotocol/related-task': { taskId: 't' } }), true],
      [
        'initialize with an envelope',
        raw({ id: 1, method: 'initialize', params: { _meta: ENVELOPE } }, { 'mcp-method': 'initialize' }),
        true,
      ],
      ['an extra top-level key', raw({ id: 1, params: { ...call, _meta: ENVELOPE }, extra: 1 }), false],
      ['a fractional id', withMeta({}, 1.5), false],
      ['a null id', withMeta({}, null), false],
      ['jsonrpc 1.0', raw({ jsonrpc: '1.0', id: 1, params: { ...call, _meta: ENVELOPE } }), false],
      ['a fractional progress token', withMeta({ progressToken: 1.5 }), false],
      ['a malformed related task', withMeta({ 'io.modelcontextprotocol/related-task': { taskId: 5 } }), false],
      ['a bad client info', withMeta({ 'io.modelcontextprotocol/clientInfo': { name: 5, version: '1' } }), false],
      ['a bad log level', withMeta({ 'io.modelcontextprotocol/logLevel': 'loud' }), false],
      [
        'no client capabilities',
        raw({ id: 1, params: { ...call, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } } }),
        false,
      ],
      ['another envelope version', withMeta({ 'io.modelcontextprotocol/protocolVersion': '2026-07-29' }), false],
      [
        'a legacy version header',
        raw({ id: 1, params: { ...call, _meta: ENVELOPE } }, { 'mcp-protocol-version': '2025-11-25' }),
        false,
      ],
      [
        'another Mcp-Method',
        raw({ id: 1, params: { ...call, _meta: ENVELOPE } }, { 'mcp-method': 'tools/list' }),
        false,
      ],
      ['another Mcp-Name', raw({ id: 1, params: { ...call, _meta: ENVELOPE } }, { 'mcp-name': 'echo.other' }), false],
      ['params without _meta', raw({ id: 1, params: call }), false],
    ];
    // Twice: an envelope seen for the first time is decided by the SDK, the same one again by the hand check.
    for (const round of [1, 2]) {
      for (const [what, make, admitted] of cases) {
        const request = make();
        expect([round, what, dispatcher.admit(request, await request.clone().json()) !== undefined]).toEqual([
          round,
          what,
          admitted,
        ]);
        const mine = await serve(dispatcher, make());
        const theirs = await serve(reference, make());
        expect([round, what, mine]).toEqual([round, what, theirs]);
      }
    }
    await dispatcher.close();
  });

  it('leaves listen streams and the SDK’s refusals to the SDK’s handler, with its answers', async () => {
    const { dispatcher, reference, built } = setup();
    const unnamed = { id: 1, method: 'tools/call', params: { name: 'echo.say', arguments: { text: 'x' } } };
    const headers = { 'mcp-name': 'other.tool' };
    const mine = await serve(dispatcher, modernRequest(unnamed, { headers }));
    expect(mine.status).toBe(400);
    expect(mine).toEqual(await serve(reference, modernRequest(unnamed, { headers })));
    const controller = new AbortController();
    const listen = await dispatcher.fetch(
      modernRequest(
        { id: 2, method: 'subscriptions/listen', params: { notifications: { toolsListChanged: true } } },
        { signal: controller.signal },
      ),
      {
        parsedBody: {
          jsonrpc: '2.0',
          id: 2,
          method: 'subscriptions/listen',
          params: { notifications: { toolsListChanged: true }, _meta: ENVELOPE },
        },
      },
    );
    expect(listen.headers.get('content-type')).toBe('text/event-stream');
    expect(built()).toBe(1);
    controller.abort();
    await listen.body?.cancel().catch(() => {});
    await dispatcher.close();
  });

  it('keeps concurrent requests that share a JSON-RPC id apart, and shows each handler its client’s id', async () => {
    const { dispatcher } = setup();
    seen.length = 0;
    const call = (tag: string) =>
      serve(
        dispatcher,
        modernRequest({ id: 1, method: 'tools/call', params: { name: 'work.hold', arguments: { tag } } }),
      );
    const first = call('first');
    const second = call('second');
    await until(() => held.has('first') && held.has('second'), 'both calls to start');
    held.get('second')!();
    held.get('first')!();
    const [a, b] = await Promise.all([first, second]);
    expect([a.messages[0], b.messages[0]].map((m) => [m.id, m.result.content[0].text])).toEqual([
      [1, 'held first'],
      [1, 'held second'],
    ]);
    expect(seen.map((s) => s.requestId)).toEqual([1, 1]);
    held.clear();
    await dispatcher.close();
  });

  it('aborts the handler of a request whose client went away, answers 499, and keeps serving', async () => {
    const { dispatcher } = setup();
    seen.length = 0;
    const controller = new AbortController();
    const request = modernRequest(
      { id: 9, method: 'tools/call', params: { name: 'work.hold', arguments: { tag: 'gone' } } },
      { signal: controller.signal },
    );
    const pending = dispatcher.fetch(request, { parsedBody: await request.clone().json() });
    await until(() => held.has('gone'), 'the call to start');
    controller.abort();
    expect((await pending).status).toBe(499);
    await until(() => seen[0]?.aborted === true, 'the handler to see the abort');
    const next = await serve(
      dispatcher,
      modernRequest({ id: 9, method: 'tools/call', params: { name: 'echo.say', arguments: { text: 'again' } } }),
    );
    expect(next.messages[0]).toMatchObject({ id: 9, result: { content: [{ type: 'text', text: 'said again' }] } });
    held.clear();
    await dispatcher.close();
  });
});
