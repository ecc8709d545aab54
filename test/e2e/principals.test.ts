import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { inputRequired } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { registry as workspace, workspaceOptions } from '../../examples/workspace/registry.js';
import { createFusionApp, initFusion, type FusionApp, type HandlerExtra } from '../../src/index.js';
import { messagesOf, openSession, post, request } from '../_helpers/raw.js';
import { texts } from '../_helpers/clients.js';

/** Verified tokens as #23's verifier would pass them: issuer and subject in `extra`, the OAuth client in `clientId`. */
const ISS = 'https://id.example';
const user = (sub: string, clientId = 'app') => ({ token: `t-${sub}`, clientId, scopes: [], extra: { sub, iss: ISS } });
const client = (clientId: string) => ({ token: `t-${clientId}`, clientId, scopes: [] });
type Caller = { authInfo?: unknown; peer?: string };

/** One raw 2026-07-28 request as `caller`, resolving to its JSON-RPC response. */
async function modern(app: FusionApp, caller: Caller, method: string, params: Record<string, unknown>): Promise<any> {
  const name = typeof params.name === 'string' ? params.name : undefined;
  const meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
    'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
  };
  const headers: Record<string, string> = {
    host: '127.0.0.1',
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': method,
    ...(name !== undefined ? { 'mcp-name': name } : {}),
  };
  const body = { jsonrpc: '2.0', id: 7, method, params: { ...params, _meta: meta } };
  const res = await app.fetch(
    new Request('http://127.0.0.1/mcp', { method: 'POST', headers, body: JSON.stringify(body) }),
    caller as never,
  );
  return (await messagesOf(res)).find((m) => m.id === 7);
}

/** A v2 client in auto (modern) mode whose every request carries `caller`. */
async function modernClient(app: FusionApp, caller: Caller): Promise<Client & AsyncDisposable> {
  const c = new Client({ name: 'modern', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
  await c.connect(
    new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), {
      fetch: (url, init) => {
        const request = new Request(url, init);
        request.headers.set('host', '127.0.0.1');
        return app.fetch(request, caller as never);
      },
    }),
  );
  return Object.assign(c, { [Symbol.asyncDispose]: () => c.close() });
}

const f = initFusion();
let payments = 0;
/** Two rounds: asks for a confirmation, then "pays" once per accepted final state. */
const pay = f
  .mutation('pay')
  .describe('Pays the order in the sealed state')
  .handle(async (_i, _c, extra: HandlerExtra) => {
    const state = extra.requestState as { order: string } | undefined;
    if (state === undefined) {
      return inputRequired({
        inputRequests: {
          ok: inputRequired.elicit({
            message: 'Pay?',
            requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
          }),
        },
        requestState: await extra.sealState({ order: 'alice-order-1' }),
      });
    }
    payments++;
    return `paid ${state.order}`;
  });
let release: () => void = () => {};
let onSlowStart: () => void = () => {};
/** Resolves when the next `slow` call is inside its handler (so it counts as running), instead of a guessed delay. */
const slowStarted = () => new Promise<void>((resolve) => (onSlowStart = resolve));
const slow = f
  .query('slow')
  .describe('Waits until released')
  .handle(() => {
    onSlowStart();
    return new Promise<string>((resolve) => (release = () => resolve('done')));
  });
const quick = f
  .query('quick')
  .describe('Answers at once')
  .handle(() => 'quick');
const app = () => createFusionApp(f.registry().registerAll(pay, slow, quick), { maxConcurrentCalls: 1 });
const answers = { ok: { action: 'accept', content: { ok: true } } };

describe('sealed requestState: bound to the principal, accepted once (regressions of #20)', () => {
  it('refuses another user of the same OAuth client replaying a user’s final requestState', async () => {
    const server = app();
    const first = await modern(server, { authInfo: user('alice') }, 'tools/call', { name: 'pay', arguments: {} });
    const state: string = first.result.requestState;
    const replay = await modern(server, { authInfo: user('bob') }, 'tools/call', {
      name: 'pay',
      arguments: {},
      inputResponses: answers,
      requestState: state,
    });
    expect(replay.error).toMatchObject({ code: -32602, data: { reason: 'invalid_request_state' } });
    const own = await modern(server, { authInfo: user('alice') }, 'tools/call', {
      name: 'pay',
      arguments: {},
      inputResponses: answers,
      requestState: state,
    });
    expect(own.result.content[0].text).toBe('paid alice-order-1');
    await server.close();
  });

  it('runs the handler once when the same state is sent three times', async () => {
    const server = app();
    const first = await modern(server, { authInfo: user('alice') }, 'tools/call', { name: 'pay', arguments: {} });
    const before = payments;
    const sent = await Promise.all(
      [1, 2, 3].map(() =>
        modern(server, { authInfo: user('alice') }, 'tools/call', {
          name: 'pay',
          arguments: {},
          inputResponses: answers,
          requestState: first.result.requestState,
        }),
      ),
    );
    expect(payments - before).toBe(1);
    expect(sent.filter((m) => m.result !== undefined)).toHaveLength(1);
    expect(sent.filter((m) => m.error?.code === -32602)).toHaveLength(2);
    await server.close();
  });

  it('keeps anonymous callers on different peers apart', async () => {
    const server = app();
    const first = await modern(server, { peer: '10.0.0.1' }, 'tools/call', { name: 'pay', arguments: {} });
    const other = await modern(server, { peer: '10.0.0.2' }, 'tools/call', {
      name: 'pay',
      arguments: {},
      inputResponses: answers,
      requestState: first.result.requestState,
    });
    expect(other.error).toMatchObject({ code: -32602 });
    await server.close();
  });
});

describe('maxConcurrentCalls counts per principal (regression of #20)', () => {
  it('does not let one user’s slow calls refuse another user of the same client app', async () => {
    const server = app();
    const started = slowStarted();
    const running = modern(server, { authInfo: user('alice') }, 'tools/call', { name: 'slow', arguments: {} });
    await started;
    const bob = await modern(server, { authInfo: user('bob') }, 'tools/call', { name: 'quick', arguments: {} });
    expect(bob.result.isError).not.toBe(true);
    const alice = await modern(server, { authInfo: user('alice') }, 'tools/call', { name: 'quick', arguments: {} });
    expect(alice.result.isError).toBe(true);
    expect(alice.result.content[0].text).toMatch(/1 calls are already running for this client/);
    release();
    expect((await running).result.content[0].text).toBe('done');
    await server.close();
  });
});

describe('running tool calls per process (limits.maxInFlightCalls)', () => {
  it('answers one more tools/call with 503 and Retry-After while the budget is full, and serves it after', async () => {
    const server = createFusionApp(f.registry().registerAll(slow, quick), { limits: { maxInFlightCalls: 1 } });
    const started = slowStarted();
    const running = modern(server, { authInfo: user('alice') }, 'tools/call', { name: 'slow', arguments: {} });
    await started;
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
      'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
    };
    const refused = await server.fetch(
      new Request('http://127.0.0.1/mcp', {
        method: 'POST',
        headers: {
          host: '127.0.0.1',
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'tools/call',
          'mcp-name': 'quick',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 3,
          method: 'tools/call',
          params: { name: 'quick', arguments: {}, _meta: meta },
        }),
      }),
      { authInfo: user('bob') } as never,
    );
    expect([refused.status, refused.headers.get('retry-after')]).toEqual([503, '1']);
    expect((await refused.json()).error).toMatchObject({
      code: -32603,
      message: expect.stringContaining('maximum of 1 tool calls'),
    });
    release();
    await running;
    expect(
      (await modern(server, { authInfo: user('bob') }, 'tools/call', { name: 'quick', arguments: {} })).result
        .content[0].text,
    ).toBe('quick');
    await server.close();
  });

  it('counts legacy sessions’ calls against the same process budget', async () => {
    const server = createFusionApp(f.registry().registerAll(slow, quick), { limits: { maxInFlightCalls: 1 } });
    const sid = await openSession(server);
    const started = slowStarted();
    const running = request(server, sid, 1, 'tools/call', { name: 'slow', arguments: {} });
    await started;
    const refused = await post(
      server,
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'quick', arguments: {} } },
      sid,
    );
    expect([refused.status, refused.headers.get('retry-after')]).toEqual([503, '1']);
    expect((await refused.json()).id).toBe(2);
    release();
    await running;
    await server.close();
  });
});

describe('workflow handles are owned by the principal key (regression of #20)', () => {
  it('refuses a handle minted for sub=alice to a client whose clientId is alice', async () => {
    const server = createFusionApp(workspace, workspaceOptions());
    await using subject = await modernClient(server, { authInfo: user('alice') });
    const added = await subject.callTool({ name: 'cart.add_item', arguments: { product_id: 'p1' } });
    const handle = /checkout_id: (che_[\w-]+)/.exec(texts(added).join('\n'))![1]!;
    await using impostor = await modernClient(server, { authInfo: client('alice') });
    const used = await impostor.callTool({ name: 'cart.checkout', arguments: { checkout_id: handle } });
    expect(used.isError).toBe(true);
    expect(texts(used)[0]).toContain(`Unknown or expired checkout_id "${handle}"`);
    expect((await subject.callTool({ name: 'cart.checkout', arguments: { checkout_id: handle } })).isError).not.toBe(
      true,
    );
    await server.close();
  });

  it('refuses a principal a new handle past workflowHandles.maxPerPrincipal, and lets others start', async () => {
    const server = createFusionApp(workspace, { ...workspaceOptions(), workflowHandles: { maxPerPrincipal: 2 } });
    await using alice = await modernClient(server, { authInfo: user('alice') });
    await using bob = await modernClient(server, { authInfo: user('bob') });
    for (let i = 0; i < 2; i++)
      expect((await alice.callTool({ name: 'cart.add_item', arguments: { product_id: `p${i}` } })).isError).not.toBe(
        true,
      );
    const third = await alice.callTool({ name: 'cart.add_item', arguments: { product_id: 'p3' } });
    expect(third.isError).toBe(true);
    expect(texts(third)[0]).toMatch(
      /could not start a new checkout workflow: you already hold 2 open ones\. Finish or abandon an open one/,
    );
    expect((await bob.callTool({ name: 'cart.add_item', arguments: { product_id: 'p1' } })).isError).not.toBe(true);
    await server.close();
  });
});

describe('listen streams per principal or peer (regression of #20)', () => {
  it('lets 16 anonymous streams from one peer lock out only that peer', async () => {
    const server = createFusionApp(workspace, workspaceOptions());
    await using a = await modernClient(server, { peer: '10.0.0.1' });
    await using b = await modernClient(server, { peer: '10.0.0.2' });
    const streams = [];
    for (let i = 0; i < 16; i++) streams.push(await a.listen({ resourceSubscriptions: ['fusion://stale/sprints.*'] }));
    await expect(a.listen({ resourceSubscriptions: ['fusion://stale/sprints.*'] })).rejects.toThrow(
      /Too many open subscription streams: this client already holds 16/,
    );
    const other = await b.listen({ resourceSubscriptions: ['fusion://stale/sprints.*'] });
    await other.close();
    for (const s of streams) await s.close();
    await server.close();
  });

  it('answers 429 with Retry-After per principal and 503 when the server-wide cap is full', async () => {
    const server = createFusionApp(workspace, {
      ...workspaceOptions(),
      maxListenStreamsPerPrincipal: 1,
      limits: { maxListenStreams: 2 },
    });
    const listen = async (caller: Caller) => {
      const res = await server.fetch(
        new Request('http://127.0.0.1/mcp', {
          method: 'POST',
          headers: {
            host: '127.0.0.1',
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-protocol-version': '2026-07-28',
            'mcp-method': 'subscriptions/listen',
          },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'subscriptions/listen',
            params: {
              notifications: { toolsListChanged: true },
              _meta: {
                'io.modelcontextprotocol/protocolVersion': '2026-07-28',
                'io.modelcontextprotocol/clientCapabilities': {},
                'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
              },
            },
          }),
        }),
        caller as never,
      );
      return res;
    };
    const one = await listen({ authInfo: user('alice') });
    expect(one.status).toBe(200);
    const twice = await listen({ authInfo: user('alice') });
    expect([twice.status, twice.headers.get('retry-after')]).toEqual([429, '5']);
    const two = await listen({ authInfo: user('bob') });
    expect(two.status).toBe(200);
    const full = await listen({ authInfo: user('carol') });
    expect([full.status, full.headers.get('retry-after')]).toEqual([503, '30']);
    expect((await full.json()).error.message).toMatch(/maximum of 2 subscription streams/);
    await one.body?.cancel();
    await two.body?.cancel();
    await server.close();
  });

  it('ends a stream at its maximum lifetime and frees its slot', async () => {
    const server = createFusionApp(workspace, {
      ...workspaceOptions(),
      maxListenStreamsPerPrincipal: 1,
      limits: { listenMaxLifetimeMs: 200 },
    });
    await using a = await modernClient(server, { peer: '10.0.0.9' });
    const first = await a.listen({ resourceSubscriptions: ['fusion://stale/sprints.*'] });
    // The server ends the stream itself when its lifetime is reached: the client sees it close from the far side.
    expect(await first.closed).not.toBe('local');
    const again = await a.listen({ resourceSubscriptions: ['fusion://stale/sprints.*'] });
    await again.close();
    await server.close();
  });
});

describe('a legacy session is bound to the principal that opened it (regression of #20)', () => {
  const initialize = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  };
  const headers = (sid?: string) => ({
    host: '127.0.0.1',
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    ...(sid === undefined ? {} : { 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25' }),
  });
  const post = (server: FusionApp, body: unknown, caller: Caller, sid?: string) =>
    server.fetch(
      new Request('http://127.0.0.1/mcp', { method: 'POST', headers: headers(sid), body: JSON.stringify(body) }),
      caller as never,
    );

  it('refuses the session id presented by another user, a client of the same name, or without credentials', async () => {
    const server = createFusionApp(workspace, workspaceOptions());
    const opened = await post(server, initialize, { authInfo: user('alice') });
    const sid = opened.headers.get('mcp-session-id')!;
    await opened.text();
    await (
      await post(server, { jsonrpc: '2.0', method: 'notifications/initialized' }, { authInfo: user('alice') }, sid)
    ).text();
    const list = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
    for (const caller of [{ authInfo: user('bob') }, { authInfo: client('alice') }, {}]) {
      const refused = await post(server, list, caller, sid);
      expect(refused.status).toBe(403);
      expect((await refused.json()).error.message).toMatch(/belongs to another principal/);
    }
    const own = await post(server, list, { authInfo: user('alice') }, sid);
    expect(own.status).toBe(200);
    expect((await messagesOf(own))[0].result.tools.length).toBeGreaterThan(0);
    await server.close();
  });
});
