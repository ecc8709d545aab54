import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type RequestListener,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { registry, workspaceOptions } from '../../examples/workspace/registry.js';
import { createFusionApp, type FusionApp } from '../../src/index.js';
import { texts, v2FetchClient, v2HttpClient, type Mode } from '../_helpers/clients.js';

/** A node:http server on an ephemeral 127.0.0.1 port serving `listener`, closed with the app by `await using`. */
async function mounted(
  app: FusionApp,
  listener: RequestListener,
): Promise<{ url: string; reads: () => number } & AsyncDisposable> {
  let reads = 0;
  const http = createServer((req, res) => {
    reads += req.method === 'POST' ? 1 : 0;
    listener(req, res);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    reads: () => reads,
    [Symbol.asyncDispose]: async () => {
      await app.close();
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}

/** What `express.json()` does: reads the whole JSON body of a POST and sets `req.body`, then calls on. */
function parseJsonFirst(
  next: (req: IncomingMessage & { body?: unknown }, res: ServerResponse, body: unknown) => void,
): RequestListener {
  return (req, res) => {
    if (req.method !== 'POST') return next(req, res, undefined);
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => next(req, res, JSON.parse(Buffer.concat(chunks).toString('utf8'))));
  };
}

/** The tool names a client of `mode` lists from the app's fetch (no socket, no node adapter). */
async function listedByFetch(mode: Mode): Promise<string[]> {
  const app = createFusionApp(registry, workspaceOptions());
  await using client = await v2FetchClient(app, mode);
  const names = (await client.listTools()).tools.map((t) => t.name);
  await app.close();
  return names;
}

/** Talks to the workspace example through the SDK client: a list, a grouped call, and the era it ran in. */
async function exercise(url: string, mode: Mode): Promise<{ era: string | undefined; tools: string[]; text: string }> {
  await using client = await v2HttpClient(url, mode);
  const tools = (await client.listTools()).tools.map((t) => t.name);
  const created = await client.callTool({
    name: 'platform',
    arguments: { action: 'users.create', email: 'node@example.com' },
  });
  expect(created.isError).toBeFalsy();
  return { era: client.getProtocolEra(), tools, text: texts(created).join('\n') };
}

describe('app.node, the mountable node:http handler', () => {
  for (const [mode, era] of [
    ['legacy', 'legacy'],
    ['auto', 'modern'],
  ] as const) {
    it(`serves the SDK client in the ${era} era from http.createServer(app.node)`, async () => {
      const app = createFusionApp(registry, workspaceOptions());
      await using srv = await mounted(app, app.node);
      const seen = await exercise(srv.url, mode);
      expect(seen.era).toBe(era);
      expect(seen.tools).toEqual(await listedByFetch(mode));
      expect(seen.tools).toContain('platform');
      expect(seen.text).toContain('"email":"node@example.com"');
    });

    it(`takes a body parsed before it (req.body, as express.json() leaves it) in the ${era} era`, async () => {
      const app = createFusionApp(registry, workspaceOptions());
      const taken: unknown[] = [];
      await using srv = await mounted(
        app,
        parseJsonFirst((req, res, body) => {
          if (body !== undefined) req.body = body;
          taken.push(body);
          app.node(req, res);
        }),
      );
      // The stream is read to its end before app.node runs: a second read would find nothing and answer 400.
      const seen = await exercise(srv.url, mode);
      expect(seen.era).toBe(era);
      expect(seen.text).toContain('"email":"node@example.com"');
      expect(taken.filter((b) => b !== undefined).length).toBe(srv.reads());
    });

    it(`takes a body passed as its third argument (Fastify's request.body) in the ${era} era`, async () => {
      const app = createFusionApp(registry, workspaceOptions());
      await using srv = await mounted(
        app,
        parseJsonFirst((req, res, body) => app.node(req, res, body)),
      );
      const seen = await exercise(srv.url, mode);
      expect(seen.era).toBe(era);
      expect(seen.text).toContain('"email":"node@example.com"');
    });

    it(`ignores a framework's next() passed as a third argument (Express calls handlers so) in the ${era} era`, async () => {
      const app = createFusionApp(registry, workspaceOptions());
      const next = (): void => {
        throw new Error('next() called: the app should have answered');
      };
      await using srv = await mounted(app, (req, res) => app.node(req, res, next));
      const seen = await exercise(srv.url, mode);
      expect(seen.era).toBe(era);
      expect(seen.text).toContain('"email":"node@example.com"');
    });
  }

  it('serves the endpoint under a mount path that cut req.url (Express app.use("/mcp", …) keeps originalUrl)', async () => {
    const app = createFusionApp(registry, workspaceOptions());
    await using srv = await mounted(app, (req, res) => {
      const cut = req as IncomingMessage & { originalUrl?: string };
      cut.originalUrl = req.url!;
      req.url = req.url!.slice('/mcp'.length) || '/';
      app.node(req, res);
    });
    const seen = await exercise(srv.url, 'auto');
    expect(seen.era).toBe('modern');
  });

  it('checks the type and declared size of a parsed body as of one it reads: 415, then 413', async () => {
    const app = createFusionApp(registry, { ...workspaceOptions(), maxBodyBytes: 64 });
    await using srv = await mounted(
      app,
      parseJsonFirst((req, res, body) => {
        req.body = body;
        app.node(req, res);
      }),
    );
    const post = (type: string, body: string) =>
      fetch(srv.url, {
        method: 'POST',
        headers: { 'content-type': type, accept: 'application/json, text/event-stream' },
        body,
      });
    const wrongType = await post('text/plain', '{"jsonrpc":"2.0","id":1,"method":"ping"}');
    expect([wrongType.status, (await wrongType.json()).error.code]).toEqual([415, -32600]);
    const large = await post(
      'application/json',
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(100) } }),
    );
    expect(await large.json()).toEqual({
      jsonrpc: '2.0',
      error: { code: -32600, message: 'Payload Too Large: the request body exceeds 64 bytes.' },
      id: null,
    });
    expect(large.status).toBe(413);
  });

  it("refuses a malformed Host first, with the error table's body and a Content-Length, never a 500", async () => {
    const app = createFusionApp(registry, workspaceOptions());
    await using srv = await mounted(app, app.node);
    const reply = await new Promise<{ status: number; length: string | undefined; body: string }>((resolve, reject) => {
      const { port } = new URL(srv.url);
      const req = httpRequest({ host: '127.0.0.1', port, path: '/mcp/../console', headers: { host: 'a b' } }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, length: res.headers['content-length'], body }));
      });
      req.on('error', reject).end();
    });
    const body =
      '{"jsonrpc":"2.0","error":{"code":-32600,"message":"Bad Request: the Host header \\"a b\\" is malformed; send host or host:port (for example 127.0.0.1:3000)."},"id":null}';
    expect(reply).toEqual({ status: 400, length: String(Buffer.byteLength(body)), body });
  });
});
