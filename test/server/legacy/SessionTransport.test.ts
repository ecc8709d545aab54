import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initFusion, MemoryEventStore, startServer } from '../../../src/index.js';

/** The real memory store, recording which streams got events. */
class RecordingStore extends MemoryEventStore {
  readonly appendedTo: string[] = [];
  override append(stream: string, message: object, key?: string): Promise<string> {
    this.appendedTo.push(stream);
    return super.append(stream, message, key);
  }
}

const f = initFusion();
let release: () => void = () => {};
const registry = f.registry().registerAll(
  f
    .query('ping')
    .describe('Answers pong')
    .handle(() => 'pong'),
  f
    .query('slow')
    .describe('Reports progress, then waits for the test before it answers')
    .handle(async (_input, _ctx, extra) => {
      await extra.progress(1, 2, 'half');
      await new Promise<void>((resolve) => (release = resolve));
      return 'done';
    }),
);

let started: () => void = () => {};
const hang = f
  .query('hang')
  .describe('Runs until the client cancels it')
  .handle(async (_input, _ctx, extra) => {
    started();
    await new Promise<void>((resolve) => extra.signal.addEventListener('abort', () => resolve()));
    return 'cancelled';
  });
let releasePoll: () => void = () => {};
const poll = f
  .query('poll')
  .describe('Closes its own SSE stream (polling), then answers when the test says')
  .handle(async (_input, _ctx, extra) => {
    (extra.raw as { http?: { closeSSE?: () => void } }).http?.closeSSE?.();
    await new Promise<void>((resolve) => (releasePoll = resolve));
    return 'polled';
  });
const chatty = f
  .query('chatty')
  .describe('Logs without waiting for the log to go out, then answers at once')
  .handle((_input, _ctx, extra) => {
    void extra.log('info', 'on my way');
    return 'done';
  });
registry.registerAll(hang, poll, chatty);

const store = new RecordingStore();
/** An SDK Client on a server of its own with one call slot (`maxInFlightCalls: 1`), both closed after `use`. */
async function onTightServer(use: (client: Client) => Promise<void>, fetchImpl?: typeof fetch): Promise<void> {
  const tight = await startServer(registry, { port: 0, limits: { maxInFlightCalls: 1 } });
  const client = new Client({ name: 'sdk', version: '1' });
  try {
    await client.connect(
      new StreamableHTTPClientTransport(new URL(tight.url), fetchImpl === undefined ? {} : { fetch: fetchImpl }),
    );
    await use(client);
  } finally {
    await client.close();
    await tight.close();
  }
}

/** What the `ping` tool answers. */
async function pong(client: Client): Promise<unknown> {
  return (await client.callTool({ name: 'ping', arguments: {} })).content;
}

const PONG = [{ type: 'text', text: 'pong' }];

let server: Awaited<ReturnType<typeof startServer>>;
let url: string;
beforeAll(async () => {
  server = await startServer(registry, { port: 0, eventStore: store, sseRetryMs: 20 });
  url = server.url;
});
afterAll(() => server.close());

const base = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

function post(body: unknown, sid?: string, signal?: AbortSignal): Promise<Response> {
  const headers: Record<string, string> = { ...base };
  if (sid !== undefined) Object.assign(headers, { 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25' });
  return fetch(url, { method: 'POST', headers, body: JSON.stringify(body), ...(signal ? { signal } : {}) });
}

async function openSession(): Promise<string> {
  const init = await post({
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  });
  const sid = init.headers.get('mcp-session-id')!;
  await init.text();
  const done = await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, sid);
  await done.text();
  return sid;
}

/** SSE events read from a body as they come, each with its fields. */
function sseReader(body: ReadableStream<Uint8Array>) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  return {
    async next(): Promise<{ id?: string; retry?: string; data: string } | undefined> {
      while (!buffer.includes('\n\n')) {
        const { done, value } = await reader.read();
        if (done) return undefined;
        buffer += decoder.decode(value, { stream: true });
      }
      const at = buffer.indexOf('\n\n');
      const block = buffer.slice(0, at);
      buffer = buffer.slice(at + 2);
      const event: { id?: string; retry?: string; data: string } = { data: '' };
      for (const line of block.split('\n')) {
        const [field, ...rest] = line.split(': ');
        const value = rest.join(': ');
        if (field === 'id') event.id = value;
        else if (field === 'retry') event.retry = value;
        else if (field === 'data') event.data = value;
      }
      return event;
    },
    cancel: () => reader.cancel(),
  };
}

describe('legacy session answers (SessionTransport over HTTP)', () => {
  it('answers a plain call as one JSON body with its Content-Length, and stores no event', async () => {
    const sid = await openSession();
    const before = store.appendedTo.length;
    const res = await post(
      { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'ping', arguments: {} } },
      sid,
    );
    const text = await res.text();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(text)));
    expect(res.headers.get('mcp-session-id')).toBe(sid);
    expect(JSON.parse(text)).toEqual({ jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: 'pong' }] } });
    expect(store.appendedTo.slice(before)).toEqual([]);
  });

  it('answers a call that reports progress as SSE, resumable by Last-Event-ID', async () => {
    const sid = await openSession();
    const abort = new AbortController();
    const call = {
      jsonrpc: '2.0',
      id: 8,
      method: 'tools/call',
      params: { name: 'slow', arguments: {}, _meta: { progressToken: 'p1' } },
    };
    const res = await post(call, sid, abort.signal);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const events = sseReader(res.body!);
    const priming = await events.next();
    expect(priming).toMatchObject({ retry: '20', data: '' });
    expect(priming?.id).toMatch(new RegExp(`^s:${sid}/`));
    const progress = await events.next();
    expect(JSON.parse(progress!.data)).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: 'p1', progress: 1, total: 2, message: 'half' },
    });
    expect(progress?.id?.split('#')[0]).toBe(priming?.id?.split('#')[0]);
    // The connection drops before the result; the client comes back with the priming event's id.
    abort.abort();
    const resumed = await fetch(url, {
      method: 'GET',
      headers: {
        accept: 'text/event-stream',
        'mcp-session-id': sid,
        'mcp-protocol-version': '2025-11-25',
        'last-event-id': priming!.id!,
      },
    });
    expect(resumed.status).toBe(200);
    const again = sseReader(resumed.body!);
    expect(await again.next()).toEqual({ id: priming!.id, retry: '20', data: '' }); // the resumed stream's priming event
    expect(await again.next()).toEqual(progress); // replayed, same id
    release();
    const result = await again.next();
    expect(JSON.parse(result!.data)).toEqual({
      jsonrpc: '2.0',
      id: 8,
      result: { content: [{ type: 'text', text: 'done' }] },
    });
    expect(result?.id?.split('#')[0]).toBe(priming?.id?.split('#')[0]);
    expect(await again.next()).toBeUndefined(); // the stream ends with the call
  });

  it('streams a log sent just before the result (not awaited) ahead of it, not a JSON answer without it', async () => {
    const logged = await startServer(registry, { port: 0, logging: true });
    try {
      url = logged.url;
      const sid = await openSession();
      const res = await post(
        { jsonrpc: '2.0', id: 10, method: 'tools/call', params: { name: 'chatty', arguments: {} } },
        sid,
      );
      expect(res.headers.get('content-type')).toBe('text/event-stream');
      const events = sseReader(res.body!);
      const messages: unknown[] = [];
      for (let event = await events.next(); event !== undefined; event = await events.next())
        if (event.data !== '') messages.push(JSON.parse(event.data));
      expect(messages).toEqual([
        { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'on my way' } },
        { jsonrpc: '2.0', id: 10, result: { content: [{ type: 'text', text: 'done' }] } },
      ]);
    } finally {
      url = server.url;
      await logged.close();
    }
  });

  it('lets a handler close its stream (polling): a primed SSE answer that ends, the result on the resumed stream', async () => {
    const sid = await openSession();
    const res = await post(
      { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'poll', arguments: {} } },
      sid,
    );
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const events = sseReader(res.body!);
    const priming = await events.next();
    expect(priming).toMatchObject({ retry: '20', data: '' });
    expect(await events.next()).toBeUndefined();
    const resumed = await fetch(url, {
      method: 'GET',
      headers: {
        accept: 'text/event-stream',
        'mcp-session-id': sid,
        'mcp-protocol-version': '2025-11-25',
        'last-event-id': priming!.id!,
      },
    });
    const again = sseReader(resumed.body!);
    expect(await again.next()).toEqual({ id: priming!.id, retry: '20', data: '' });
    releasePoll();
    const result = await again.next();
    expect(JSON.parse(result!.data)).toEqual({
      jsonrpc: '2.0',
      id: 9,
      result: { content: [{ type: 'text', text: 'polled' }] },
    });
    expect(await again.next()).toBeUndefined();
  });

  it('frees a call slot as soon as its JSON answer is made (maxInFlightCalls: 1, calls one after another)', async () => {
    await onTightServer(async (client) => {
      for (let i = 0; i < 3; i++) expect(await pong(client)).toEqual(PONG);
    });
  });

  it('ends the answer of a cancelled call, freeing its slot (maxInFlightCalls: 1)', async () => {
    let cancelDelivered!: () => void;
    const delivered = new Promise<void>((resolve) => (cancelDelivered = resolve));
    const watching: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      if (typeof init?.body === 'string' && init.body.includes('notifications/cancelled')) cancelDelivered();
      return res;
    };
    await onTightServer(async (client) => {
      const running = new Promise<void>((resolve) => (started = resolve));
      const abort = new AbortController();
      const call = client.callTool({ name: 'hang', arguments: {} }, { signal: abort.signal });
      await running;
      abort.abort();
      await expect(call).rejects.toThrow();
      await delivered;
      expect(await pong(client)).toEqual(PONG);
    }, watching);
  });

  it('answers a POST of notifications only with 202 and no body', async () => {
    const sid = await openSession();
    const res = await post({ jsonrpc: '2.0', method: 'notifications/roots/list_changed' }, sid);
    expect(res.status).toBe(202);
    expect(await res.text()).toBe('');
  });

  it('answers a batch of requests on one SSE stream (the SDK transport), each response once', async () => {
    const sid = await openSession();
    const res = await post(
      [
        { jsonrpc: '2.0', id: 1, method: 'ping' },
        { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'ping', arguments: {} } },
      ],
      sid,
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const events = sseReader(res.body!);
    const ids: unknown[] = [];
    for (let event = await events.next(); event !== undefined; event = await events.next())
      if (event.data !== '') ids.push((JSON.parse(event.data) as { id: unknown }).id);
    expect(ids.sort()).toEqual([1, 2]);
  });

  it('serves the SDK client: progress arrives before the result, plain calls stay JSON', async () => {
    const client = new Client({ name: 'sdk', version: '1' });
    const types: string[] = [];
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        fetch: async (input, init) => {
          const res = await fetch(input, init);
          if (init?.method === 'POST') types.push(res.headers.get('content-type') ?? '');
          return res;
        },
      }),
    );
    try {
      const progress: number[] = [];
      let reported!: () => void;
      const firstProgress = new Promise<void>((resolve) => (reported = resolve));
      types.length = 0;
      const pending = client.callTool(
        { name: 'slow', arguments: {} },
        { onprogress: (p) => void (progress.push(p.progress), reported()) },
      );
      await firstProgress;
      release();
      expect((await pending).content).toEqual([{ type: 'text', text: 'done' }]);
      expect((await client.callTool({ name: 'ping', arguments: {} })).content).toEqual([
        { type: 'text', text: 'pong' },
      ]);
      expect(progress).toEqual([1]);
      expect(types).toEqual(['text/event-stream', 'application/json']);
    } finally {
      await client.close();
    }
  });
});
