import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { createStderrLogger, initFusion, type HttpMiddleware } from '../../../src/index.js';
import { httpServer, texts } from '../../_helpers/clients.js';

const f = initFusion();
const registry = () =>
  f.registry().registerAll(
    f
      .query('echo')
      .describe('Echoes its text')
      .withString('text', 'What to echo')
      .handle((input) => input.text),
  );

const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** The real SDK client over HTTP; `seen` records the answers' `X-Served-By` headers. */
async function connect(url: string, seen: string[] = []): Promise<Client> {
  const client = new Client({ name: 'use-test', version: '1' });
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      seen.push(response.headers.get('x-served-by') ?? '(none)');
      return response;
    },
  });
  await client.connect(transport);
  closers.push(() => client.close());
  return client;
}

const modernMeta = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
};

/** A raw 2026-07-28 `tools/list` POST. */
const listRequest = (id: number, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': 'tools/list',
    ...headers,
  },
  body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list', params: { _meta: modernMeta } }),
});

describe('the use option: the user’s own HTTP middleware beside the built-in front', () => {
  it('runs each request through the user’s middlewares in order, which may change the answer', async () => {
    const order: string[] = [];
    const first: HttpMiddleware = async (c, next) => {
      order.push(`first ${c.request.method}`);
      const response = await next(c);
      response.headers.set('X-Served-By', 'instance-a');
      return response;
    };
    const second: HttpMiddleware = (c, next) => {
      order.push('second');
      return next(c);
    };
    await using srv = await httpServer(registry(), { use: [first, second] });
    const seen: string[] = [];
    const client = await connect(srv.url, seen);
    const result = await client.callTool({ name: 'echo', arguments: { text: 'hi' } });
    expect(texts(result)).toEqual(['hi']);
    expect(seen.length).toBeGreaterThan(0);
    expect(new Set(seen)).toEqual(new Set(['instance-a']));
    expect(order.slice(0, 2)).toEqual(['first POST', 'second']);
    expect(order.filter((o) => o === 'second')).toHaveLength(order.filter((o) => o.startsWith('first')).length);
  });

  it('lets a middleware answer a request itself, and sees only requests the built-in front admitted', async () => {
    const reached: string[] = [];
    const gate: HttpMiddleware = (c, next) => {
      reached.push(c.request.headers.get('host') ?? '');
      if (c.request.headers.get('x-tenant') === null)
        return Response.json(
          { jsonrpc: '2.0', id: null, error: { code: -32001, message: 'no tenant' } },
          { status: 403 },
        );
      return next(c);
    };
    await using srv = await httpServer(registry(), { use: [gate] });
    const refused = await fetch(srv.url, listRequest(1));
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32001, message: 'no tenant' } });
    const admitted = await fetch(srv.url, listRequest(2, { 'x-tenant': 't1' }));
    expect(admitted.status).toBe(200);
    expect(JSON.stringify(await admitted.json())).toContain('"echo"');
    // A foreign browser Origin and a wrong path are refused by the built-in front before any user middleware.
    const before = reached.length;
    const foreign = await fetch(srv.url, listRequest(3, { 'x-tenant': 't1', origin: 'https://evil.example' }));
    expect(foreign.status).toBe(403);
    const elsewhere = await fetch(srv.url.replace(/\/mcp$/, '/elsewhere'), listRequest(4, { 'x-tenant': 't1' }));
    expect(elsewhere.status).toBe(404);
    expect(reached.length).toBe(before);
  });

  it('answers a middleware that throws with 500 and a JSON-RPC -32603 error carrying the id, and logs it once', async () => {
    const lines: string[] = [];
    const broken: HttpMiddleware = function audit() {
      throw new Error('audit store down');
    };
    await using srv = await httpServer(registry(), {
      use: [broken],
      logLevel: 'warn',
      logger: createStderrLogger((text) => lines.push(text)),
    });
    const response = await fetch(srv.url, listRequest(7));
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({
      jsonrpc: '2.0',
      id: 7,
      error: {
        code: -32603,
        message:
          "The server's HTTP middleware use[0] audit failed; the request was not served. Its operator log has the error.",
      },
    });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /ERROR HTTP middleware threw middleware="use\[0\] audit" method=POST path=\/mcp err="Error: audit store down/,
    );
  });

  it('answers a middleware whose answer rejects the same way, and keeps serving the next request', async () => {
    const lines: string[] = [];
    let fail = true;
    const flaky: HttpMiddleware = async (c, next) => {
      if (fail) {
        fail = false;
        await Promise.resolve();
        throw new TypeError('quota lookup failed');
      }
      return next(c);
    };
    await using srv = await httpServer(registry(), {
      use: [flaky],
      logLevel: 'warn',
      logger: createStderrLogger((text) => lines.push(text)),
    });
    const failed = await fetch(srv.url, listRequest(8));
    expect(failed.status).toBe(500);
    expect(((await failed.json()) as { error: { code: number } }).error.code).toBe(-32603);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('middleware="use[0] flaky"');
    expect(lines[0]).toContain('TypeError: quota lookup failed');
    const client = await connect(srv.url);
    expect(texts(await client.callTool({ name: 'echo', arguments: { text: 'again' } }))).toEqual(['again']);
    expect(lines).toHaveLength(1);
  });
});
