import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { registry, workspaceOptions } from '../../examples/workspace/registry.js';
import { serveNodeRequest } from '../../src/server/app/nodeHandler.js';
import { abortNodeRequest, nodeRequest, takeNodeBody } from '../../src/server/node/nodeRequest.js';
import { readJsonBody } from '../../src/server/node/readJsonBody.js';
import { httpServer } from '../_helpers/clients.js';
import { until } from '../_helpers/waitFor.js';

const jsonHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const init = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

interface RawReply {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/** POSTs `chunks` one by one (chunked transfer encoding, a pause between them): a body the server can read only once, as it arrives. */
function postChunks(url: string, headers: Record<string, string>, chunks: string[]): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', reject);
    const next = (i: number): void => {
      if (i === chunks.length) {
        req.end();
        return;
      }
      req.write(chunks[i]);
      // A slow client trickling its body: the pause is the input under test, not a wait.
      setTimeout(() => next(i + 1), 10);
    };
    next(0);
  });
}

function messagesOf(text: string): any[] {
  return (
    text
      .split('\n')
      // A priming event (an id, empty data) opens a resumable stream: it carries no message.
      .filter((l) => l.startsWith('data:') && l.slice(5).trim() !== '')
      .map((l) => JSON.parse(l.slice(5)))
  );
}

describe("startServer's node:http adapter", () => {
  it('serves a session whose bodies arrive in pieces, read once from the socket', async () => {
    await using srv = await httpServer(registry, workspaceOptions());
    const body = JSON.stringify(init);
    const opened = await postChunks(srv.url, jsonHeaders, [body.slice(0, 10), body.slice(10, 40), body.slice(40)]);
    expect(opened.status).toBe(200);
    expect(messagesOf(opened.text)[0].result.serverInfo).toBeDefined();
    const sid = opened.headers['mcp-session-id'] as string;
    const session = { ...jsonHeaders, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25' };
    const accepted = await postChunks(srv.url, session, [
      JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    ]);
    expect([accepted.status, accepted.headers['content-length'], accepted.headers['transfer-encoding']]).toEqual([
      202,
      '0',
      undefined,
    ]);
    const call = JSON.stringify({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'sprints.create', arguments: { name: 'Sprint in pieces' } },
    });
    const reply = await postChunks(srv.url, session, [call.slice(0, 25), call.slice(25)]);
    expect(reply.status).toBe(200);
    // A call whose only message back is its response is one JSON body.
    expect(reply.headers['content-type']).toBe('application/json');
    expect(JSON.stringify(JSON.parse(reply.text).result)).toContain('Sprint in pieces');
  });

  it('answers a complete answer in one piece with its Content-Length', async () => {
    // Without resumable streams: with them, a priming event is written before the answer (two pieces).
    await using srv = await httpServer(registry, { ...workspaceOptions(), eventStore: false });
    const reply = await postChunks(srv.url, jsonHeaders, [JSON.stringify(init)]);
    expect(reply.headers['content-type']).toBe('text/event-stream');
    expect(reply.headers['transfer-encoding']).toBeUndefined();
    expect(Number(reply.headers['content-length'])).toBe(Buffer.byteLength(reply.text));
  });

  it('answers 413 for a body one byte over maxBodyBytes, with the app message; the rest flows by (no reset)', async () => {
    const limit = 1024;
    await using srv = await httpServer(registry, { ...workspaceOptions(), maxBodyBytes: limit });
    // A valid initialize of exactly `size` bytes (the client's name pads it).
    const padded = (size: number): string => {
      const named = (name: string) =>
        JSON.stringify({ ...init, params: { ...init.params, clientInfo: { name, version: '1' } } });
      return named('x'.repeat(size - named('').length));
    };
    expect(Buffer.byteLength(padded(limit))).toBe(limit);
    const atLimit = await postChunks(srv.url, jsonHeaders, [padded(limit)]);
    expect(atLimit.status).toBe(200);
    // Chunked (no Content-Length): the limit is found while reading.
    const over = padded(limit + 1);
    const reply = await postChunks(srv.url, jsonHeaders, [over.slice(0, 600), over.slice(600)]);
    expect(reply.status).toBe(413);
    expect(JSON.parse(reply.text).error.message).toBe(`Payload Too Large: the request body exceeds ${limit} bytes.`);
    // The rest of the body (within 4 × the limit) is discarded as it comes: the connection is not closed on it.
    expect(reply.headers.connection).not.toBe('close');
  });

  it('answers 413 from a declared Content-Length without waiting for the body', async () => {
    await using srv = await httpServer(registry, { ...workspaceOptions(), maxBodyBytes: 1024 });
    const { port } = new URL(srv.url);
    const socket = connect(Number(port), '127.0.0.1');
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (c: string) => (answer += c));
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    // Headers only: the 5 MB body is never sent.
    socket.write(
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 5000000\r\n\r\n`,
    );
    await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).toContain('exceeds 1024 bytes');
  });

  it('frees a listen stream slot when its client goes away', async () => {
    await using srv = await httpServer(registry, { ...workspaceOptions(), maxListenStreamsPerPrincipal: 1 });
    const listen = JSON.stringify({
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
    });
    const headers = { ...jsonHeaders, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'subscriptions/listen' };
    const open = (): Promise<{ status: number; destroy: () => void }> =>
      new Promise((resolve, reject) => {
        const req = httpRequest(srv.url, { method: 'POST', headers, agent: false }, (res) =>
          resolve({ status: res.statusCode ?? 0, destroy: () => req.destroy() }),
        );
        req.on('error', () => {});
        req.setTimeout(5_000, () => reject(new Error('no answer')));
        req.end(listen);
      });
    const first = await open();
    expect(first.status).toBe(200);
    const refused = await open();
    expect(refused.status).toBe(429);
    refused.destroy();
    first.destroy();
    // The server hears the socket close a moment later and frees the slot then: listen again until admitted.
    let again = await open();
    await until(async () => {
      if (again.status === 200) return true;
      again.destroy();
      again = await open();
      return again.status === 200;
    }, 'the freed slot to admit a new stream');
    expect(again.status).toBe(200);
    again.destroy();
  });
});

describe('serveNodeRequest', () => {
  it('answers 500 when the app throws, or when its answer fails before the first byte; the server keeps serving', async () => {
    const answers: Array<() => Promise<Response>> = [
      () => Promise.reject(new Error('app failed')),
      async () => new Response(new ReadableStream({ start: (c) => c.error(new Error('body failed')) })),
      async () => Response.json({ ok: true }),
    ];
    let next = 0;
    const server = createServer((req, res) => void serveNodeRequest({ fetch: () => answers[next++]!() }, req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
    try {
      const thrown = await postChunks(url, jsonHeaders, ['{}']);
      expect([thrown.status, JSON.parse(thrown.text).error.message]).toEqual([500, 'Internal server error']);
      const failed = await postChunks(url, jsonHeaders, ['{}']);
      expect(failed.status).toBe(500);
      const fine = await postChunks(url, jsonHeaders, ['{}']);
      expect([fine.status, fine.text]).toEqual([200, '{"ok":true}']);
    } finally {
      server.close();
    }
  });
});

describe('nodeRequest', () => {
  /** Runs `inspect` on the nodeRequest of one real POST; resolves what it returns. */
  async function withRequest<T>(
    body: string,
    inspect: (request: Request, abort: () => void) => Promise<T>,
    headers: Record<string, string> = jsonHeaders,
  ): Promise<T> {
    let result!: Promise<T>;
    const server: Server = createServer((req, res) => {
      const request = nodeRequest(req, `http://${req.headers.host}${req.url}`);
      result = inspect(request, () => abortNodeRequest(request));
      void result.finally(() => res.end());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, path: '/mcp?x=1', method: 'POST', headers }, (res) =>
        res.resume().on('end', resolve),
      );
      req.on('error', reject);
      req.end(body);
    });
    server.close();
    return result;
  }

  it('is a Request with the method, url and headers of the Node request', async () => {
    const seen = await withRequest('{"a":1}', async (request) => ({
      isRequest: request instanceof Request,
      method: request.method,
      url: request.url,
      type: request.headers.get('content-type'),
      cache: request.cache,
    }));
    expect(seen).toMatchObject({ isRequest: true, method: 'POST', type: 'application/json', cache: 'default' });
    expect(seen.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp\?x=1$/);
  });

  it('gives its body once, to readJsonBody, straight from the socket', async () => {
    const seen = await withRequest('{"jsonrpc":"2.0","id":7,"method":"ping"}', async (request) => {
      const read = await readJsonBody(request, 1024);
      return { read, again: takeNodeBody(request, 1024) };
    });
    expect(seen.read).toEqual({ body: { jsonrpc: '2.0', id: 7, method: 'ping' } });
    expect(seen.again).toBeUndefined();
  });

  it('aborts its signal when the client goes away, whether or not the signal was read before', async () => {
    const seen = await withRequest('{}', async (request, abort) => {
      const early = request.signal;
      abort();
      return { early: early.aborted, late: request.signal.aborted };
    });
    expect(seen).toEqual({ early: true, late: true });
    const late = await withRequest('{}', async (request, abort) => {
      abort();
      return request.signal.aborted;
    });
    expect(late).toBe(true);
  });
});
