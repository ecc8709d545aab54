import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { acceptedContent, InMemoryTransport, inputRequired, Server } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { initFusion, type HandlerExtra } from '../../src/index.js';
import type { AttachOptions } from '../../src/registry/types.js';
import { createFusionApp, type FusionApp } from '../../src/server/app/createFusionApp.js';
import { messagesOf } from '../_helpers/raw.js';
import { watchingStream } from '../_helpers/clients.js';
import { until } from '../_helpers/waitFor.js';
import { createClock } from '../../src/testing/index.js';

const f = initFusion();

const askName = (message: string) =>
  inputRequired.elicit({
    message,
    requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
  });

/** Two questions in two rounds, the progress sealed in requestState. */
const wizard = f
  .query('wizard')
  .describe('Asks two questions')
  .handle(async (_input, _ctx, extra: HandlerExtra) => {
    const state = extra.requestState as { round: number; first?: string } | undefined;
    const answer = acceptedContent(extra.inputResponses, state?.round === 2 ? 'second' : 'first');
    if (state === undefined)
      return inputRequired({
        inputRequests: { first: askName('First name?') },
        requestState: await extra.sealState({ round: 1 }),
      });
    if (state.round === 1 && typeof answer?.name === 'string') {
      return inputRequired({
        inputRequests: { second: askName('Last name?') },
        requestState: await extra.sealState({ round: 2, first: answer.name }),
      });
    }
    if (state.round === 2 && typeof answer?.name === 'string') return `Hello ${state.first} ${answer.name}`;
    return inputRequired({
      inputRequests: { first: askName('First name?') },
      requestState: await extra.sealState({ round: 1 }),
    });
  });

const registry = f.registry().registerAll(
  wizard,
  f
    .query('caps')
    .describe('Echoes the client capabilities')
    .handle((_i, _c, extra) => Object.keys(extra.clientCapabilities ?? {}).sort()),
  f
    .query('chatty')
    .describe('Logs at two levels')
    .handle(async (_i, _c, extra) => {
      await extra.log('info', 'info line');
      await extra.log('error', 'error line', 'chatty');
      return 'done';
    }),
  f
    .prompt('ask')
    .describe('Asks for context first')
    .handle((_a, _c, extra) => {
      const context = acceptedContent(extra.inputResponses, 'ctx');
      return typeof context?.name === 'string'
        ? `Context: ${context.name}`
        : inputRequired({ inputRequests: { ctx: askName('Context?') } });
    }),
  f
    .resource('test://watched')
    .describe('Changes now and then')
    .handle(() => 'now'),
  f
    .resource('test://other')
    .describe('Another resource')
    .handle(() => 'other'),
);
const options: AttachOptions<void> = { logging: true, resourceSubscriptions: true };

/** A v2 client over the app, answering elicitations with `names` in order; `streamOpen` as in `v2FetchClient`. */
async function client(
  app: FusionApp,
  mode: 'legacy' | 'auto',
  names: string[] = [],
): Promise<Client & AsyncDisposable & { streamOpen: Promise<void> }> {
  const c = new Client(
    { name: 'test', version: '1.0.0' },
    {
      capabilities: { elicitation: {} },
      ...(mode === 'auto' ? { versionNegotiation: { mode: 'auto' as const } } : {}),
    },
  );
  c.setRequestHandler('elicitation/create', async () => ({
    action: 'accept',
    content: { name: names.shift() ?? 'nobody' },
  }));
  const watched = watchingStream((url, init) => {
    const request = new Request(url, init);
    request.headers.set('host', '127.0.0.1');
    return app.fetch(request);
  });
  await c.connect(new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), { fetch: watched.fetch }));
  return Object.assign(c, { streamOpen: watched.opened, [Symbol.asyncDispose]: () => c.close() });
}

/** One raw 2026-07-28 request (envelope in `_meta`, headers set), resolving to its JSON-RPC response. */
async function modern(
  app: FusionApp,
  method: string,
  params: Record<string, unknown>,
  capabilities: Record<string, unknown> = { elicitation: {} },
): Promise<any> {
  const name = typeof params.name === 'string' ? params.name : undefined;
  const body = {
    jsonrpc: '2.0',
    id: 7,
    method,
    params: {
      ...params,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': capabilities,
        'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
      },
    },
  };
  const headers: Record<string, string> = {
    host: '127.0.0.1',
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': method,
    ...(name !== undefined ? { 'mcp-name': name } : {}),
  };
  const res = await app.fetch(
    new Request('http://127.0.0.1/mcp', { method: 'POST', headers, body: JSON.stringify(body) }),
  );
  return (await messagesOf(res)).find((m) => m.id === 7);
}

describe('multi-round-trip input with sealed requestState', () => {
  it('runs the same handler to completion on a modern client (input_required) and a legacy one (the SDK shim)', async () => {
    const app = createFusionApp(registry, options);
    await using now = await client(app, 'auto', ['Ada', 'Lovelace']);
    expect(now.getProtocolEra()).toBe('modern');
    expect(await now.callTool({ name: 'wizard', arguments: {} })).toMatchObject({
      content: [{ type: 'text', text: 'Hello Ada Lovelace' }],
    });
    await using old = await client(app, 'legacy', ['Grace', 'Hopper']);
    expect(await old.callTool({ name: 'wizard', arguments: {} })).toMatchObject({
      content: [{ type: 'text', text: 'Hello Grace Hopper' }],
    });
    await app.close();
  });

  it('refuses a tampered, foreign-target or foreign-caller requestState before the handler runs', async () => {
    const app = createFusionApp(registry, options);
    const first = await modern(app, 'tools/call', { name: 'wizard', arguments: {} });
    expect(first.result).toMatchObject({ resultType: 'input_required', requestState: expect.stringMatching(/^fs1\./) });
    const state: string = first.result.requestState;
    const inputResponses = { first: { action: 'accept', content: { name: 'Ada' } } };
    const second = await modern(app, 'tools/call', {
      name: 'wizard',
      arguments: {},
      inputResponses,
      requestState: state,
    });
    expect(second.result).toMatchObject({
      resultType: 'input_required',
      inputRequests: { second: expect.any(Object) },
    });
    for (const [tool, sent] of [
      ['wizard', `${state}-TAMPERED`],
      ['caps', state],
    ] as const) {
      const refused = await modern(app, 'tools/call', {
        name: tool,
        arguments: {},
        inputResponses,
        requestState: sent,
      });
      expect(refused.error).toMatchObject({
        code: -32602,
        message: expect.stringContaining('Invalid or expired requestState'),
        data: { reason: 'invalid_request_state' },
      });
    }
    const other = createFusionApp(registry, options);
    expect(
      (await modern(other, 'tools/call', { name: 'wizard', arguments: {}, inputResponses, requestState: state })).error,
    ).toMatchObject({ code: -32602 });
    await other.close();
    await app.close();
  });

  it('lets prompts return input_required too (prompts/get)', async () => {
    const app = createFusionApp(registry, options);
    const first = await modern(app, 'prompts/get', { name: 'ask' });
    expect(first.result).toMatchObject({
      resultType: 'input_required',
      inputRequests: { ctx: { method: 'elicitation/create' } },
    });
    const second = await modern(app, 'prompts/get', {
      name: 'ask',
      inputResponses: { ctx: { action: 'accept', content: { name: 'tests' } } },
    });
    expect(second.result.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Context: tests' } }]);
    await app.close();
  });

  it('tells handlers what the client declared, in both eras', async () => {
    const app = createFusionApp(registry, options);
    expect(
      (await modern(app, 'tools/call', { name: 'caps', arguments: {} }, { sampling: {}, roots: {} })).result.content[0]
        .text,
    ).toBe('["roots","sampling"]');
    await using old = await client(app, 'legacy');
    expect(await old.callTool({ name: 'caps', arguments: {} })).toMatchObject({
      content: [{ text: '["elicitation"]' }],
    });
    await app.close();
  });
});

describe('logging (option logging: true)', () => {
  it('serves logging/setLevel and filters extra.log() by the session level', async () => {
    const app = createFusionApp(registry, options);
    await using c = await client(app, 'legacy');
    expect(c.getServerCapabilities()?.logging).toEqual({});
    const logs: unknown[] = [];
    c.setNotificationHandler('notifications/message', (n) => void logs.push(n.params));
    await c.setLoggingLevel('warning');
    await c.callTool({ name: 'chatty', arguments: {} });
    await until(() => logs.length > 0, 'a log notification');
    expect(logs).toEqual([{ level: 'error', data: 'error line', logger: 'chatty' }]);
    await app.close();
  });

  it('is not offered by default', async () => {
    const app = createFusionApp(registry, {});
    await using c = await client(app, 'legacy');
    expect(c.getServerCapabilities()?.logging).toBeUndefined();
    await expect(c.setLoggingLevel('info')).rejects.toMatchObject({ code: -32601 });
    await app.close();
  });
});

describe('resource subscriptions (option resourceSubscriptions: true)', () => {
  it('delivers resources/updated to the legacy subscribers of that URI and to modern listen streams that named it, nobody else', async () => {
    const app = createFusionApp(registry, options);
    await using subscriber = await client(app, 'legacy');
    await using bystander = await client(app, 'legacy');
    await using listener = await client(app, 'auto');
    expect(subscriber.getServerCapabilities()?.resources).toEqual({ listChanged: true, subscribe: true });
    const seen = { subscriber: [] as string[], bystander: [] as string[], listener: [] as string[] };
    for (const [who, c] of [
      ['subscriber', subscriber],
      ['bystander', bystander],
      ['listener', listener],
    ] as const) {
      c.setNotificationHandler('notifications/resources/updated', (n) => void seen[who].push(n.params.uri));
    }
    await subscriber.subscribeResource({ uri: 'test://watched' });
    await bystander.subscribeResource({ uri: 'test://other' });
    // test://other is also the barrier: its update, sent last, reaches everyone after whatever was sent before.
    await subscriber.subscribeResource({ uri: 'test://other' });
    const stream = await listener.listen({ resourceSubscriptions: ['test://watched', 'test://other'] });
    await Promise.all([subscriber.streamOpen, bystander.streamOpen]);
    await app.notifyResourceUpdated('test://watched');
    await until(
      () => seen.subscriber.length > 0 && seen.listener.length > 0,
      'an update on both the subscription and the listen stream',
    );
    await subscriber.unsubscribeResource({ uri: 'test://watched' });
    await app.notifyResourceUpdated('test://watched');
    await app.notifyResourceUpdated('test://other');
    await until(
      () => Object.values(seen).every((uris) => uris.includes('test://other')),
      'the update of test://other everywhere',
    );
    expect(seen).toEqual({
      subscriber: ['test://watched', 'test://other'],
      bystander: ['test://other'],
      listener: ['test://watched', 'test://watched', 'test://other'],
    });
    await stream.close();
    await app.close();
  });

  it('refuses unknown URIs, and releases a session’s subscriptions when its server closes', async () => {
    const server = new Server({ name: 's', version: '1' }, { capabilities: {} });
    const attachment = registry.attachToServer(server, options);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const c = new Client({ name: 'test', version: '1.0.0' });
    await c.connect(clientSide);
    const updates: string[] = [];
    c.setNotificationHandler('notifications/resources/updated', (n) => void updates.push(n.params.uri));
    await expect(c.subscribeResource({ uri: 'test://missing' })).rejects.toThrow(
      /Resource not found: test:\/\/missing/,
    );
    await c.subscribeResource({ uri: 'test://watched' });
    await attachment.notifyResourceUpdated('test://watched');
    await until(() => updates.length === 1, 'the update');
    const subscriptions = registry.runtime(options).features.subscriptions!;
    expect(subscriptions.size).toBe(1);
    await c.close();
    await until(() => subscriptions.size === 0, 'the subscriptions to be released');
  });

  it('expires an idle subscription on time by itself, with no other subscribe happening', async () => {
    const clock = createClock();
    const idle: AttachOptions<void> = { resourceSubscriptions: { idleMs: 60_000, sweepEveryMs: 10 }, clock };
    const server = new Server({ name: 's', version: '1' }, { capabilities: {} });
    const attachment = registry.attachToServer(server, idle);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    await using c = Object.assign(new Client({ name: 'test', version: '1.0.0' }), {
      [Symbol.asyncDispose]: () => c.close(),
    });
    await c.connect(clientSide);
    const updates: string[] = [];
    c.setNotificationHandler('notifications/resources/updated', (n) => void updates.push(n.params.uri));
    await c.subscribeResource({ uri: 'test://watched' });
    const subscriptions = registry.runtime(idle).features.subscriptions!;
    // The sweep runs every 10 ms of the test clock: 5,999 sweeps keep the subscription, the one at its idle limit drops it.
    clock.advance(59_999);
    expect(subscriptions.size).toBe(1);
    clock.advance(1);
    expect(subscriptions.size).toBe(0);
    await attachment.notifyResourceUpdated('test://watched');
    // A barrier on the same connection: once its update is in, an update of test://watched would have been too.
    await c.subscribeResource({ uri: 'test://other' });
    await attachment.notifyResourceUpdated('test://other');
    await until(() => updates.length > 0, 'the barrier update');
    expect(updates).toEqual(['test://other']);
  });

  it('announces a deleted resource on a plain attachToServer: a last update, the end of the subscription, and list_changed', async () => {
    const server = new Server({ name: 's', version: '1' }, { capabilities: {} });
    const attachment = registry.attachToServer(server, options);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    await using c = Object.assign(new Client({ name: 'test', version: '1.0.0' }), {
      [Symbol.asyncDispose]: () => c.close(),
    });
    await c.connect(clientSide);
    const seen: string[] = [];
    c.setNotificationHandler('notifications/resources/updated', (n) => void seen.push(`updated ${n.params.uri}`));
    c.setNotificationHandler('notifications/resources/list_changed', () => void seen.push('list_changed'));
    await c.subscribeResource({ uri: 'test://watched' });
    const subscriptions = registry.runtime(options).features.subscriptions!;
    expect(subscriptions.size).toBe(1);
    await attachment.notifyResourceDeleted('test://watched');
    await until(() => seen.length === 2, 'the last update and list_changed');
    expect(seen).toEqual(['updated test://watched', 'list_changed']);
    expect(subscriptions.size).toBe(0);
    await attachment.notifyResourceUpdated('test://watched');
    // A barrier on the same connection: once its update is in, an update of the deleted resource would have been too.
    await c.subscribeResource({ uri: 'test://other' });
    await attachment.notifyResourceUpdated('test://other');
    await until(() => seen.length > 2, 'the barrier update');
    expect(seen).toEqual(['updated test://watched', 'list_changed', 'updated test://other']);
  });

  it('is not offered by default: resources/subscribe is an unknown method', async () => {
    const app = createFusionApp(registry, {});
    await using c = await client(app, 'legacy');
    expect(c.getServerCapabilities()?.resources).toEqual({ listChanged: true });
    await expect(c.subscribeResource({ uri: 'test://watched' })).rejects.toMatchObject({ code: -32601 });
    await app.close();
  });
});
