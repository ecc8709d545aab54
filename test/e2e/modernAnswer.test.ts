import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createFusionApp, initFusion } from '../../src/index.js';
import { httpServer, v2HttpClient, texts } from '../_helpers/clients.js';
import { until } from '../_helpers/waitFor.js';

const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** Calls of `work.hold` that started, and whether their handler saw the client go away. */
const holds: Array<{ aborted: boolean }> = [];

function registryOf() {
  const f = initFusion();
  return f.registry().registerAll(
    f.query('work.hold').handle(async (_i, _c, extra) => {
      const hold = { aborted: false };
      holds.push(hold);
      await new Promise<void>((resolve) =>
        extra.signal.addEventListener('abort', () => {
          hold.aborted = true;
          resolve();
        }),
      );
      return 'released';
    }),
    f
      .query('echo.say')
      .input(z.object({ text: z.string() }))
      .handle(async ({ text }) => `said ${text}`),
    f.query('work.progress').handle(async (_i, _c, extra) => {
      for (let i = 1; i <= 2; i++) await extra.progress(i, 2, `step ${i}`);
      return 'done';
    }),
  );
}

/** A modern tools/call as raw HTTP: its body text and headers. */
function modernCall(id: number, name: string, args: Record<string, unknown>, meta: Record<string, unknown> = {}) {
  return {
    body: JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name, arguments: args, _meta: { ...meta, ...ENVELOPE } },
    }),
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': name,
    },
  };
}

/** POSTs over a real socket and reads the raw answer (status, headers, body bytes as text). */
function postRaw(
  url: string,
  call: { body: string; headers: Record<string, string> },
): Promise<{ status: number; headers: IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', headers: call.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }),
      );
    });
    req.on('error', reject);
    req.end(call.body);
  });
}

function sseMessages(text: string): any[] {
  return text
    .split('\n')
    .filter((l) => l.startsWith('data:') && l.slice(5).trim() !== '')
    .map((l) => JSON.parse(l.slice(5)));
}

describe('modern answers over HTTP', () => {
  it('writes a one-message answer as JSON in one piece with its Content-Length, and the SDK client reads it', async () => {
    await using srv = await httpServer(registryOf(), { eventStore: false });
    const reply = await postRaw(srv.url, modernCall(1, 'echo.say', { text: 'one piece' }));
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('application/json');
    expect(reply.headers['transfer-encoding']).toBeUndefined();
    expect(Number(reply.headers['content-length'])).toBe(Buffer.byteLength(reply.text));
    expect(JSON.parse(reply.text)).toMatchObject({
      jsonrpc: '2.0',
      id: 1,
      result: { content: [{ type: 'text', text: 'said one piece' }] },
    });
    // A multi-byte text: the length counts bytes, not characters.
    const wide = await postRaw(srv.url, modernCall(2, 'echo.say', { text: 'süß ✓' }));
    expect(Number(wide.headers['content-length'])).toBe(Buffer.byteLength(wide.text));
    expect(JSON.parse(wide.text).result.content[0].text).toBe('said süß ✓');
    await using client = await v2HttpClient(srv.url, 'auto');
    expect(client.getProtocolEra()).toBe('modern');
    expect(texts(await client.callTool({ name: 'echo.say', arguments: { text: 'client' } }))).toEqual(['said client']);
  });

  it('gives app.fetch a real Response with the same bytes the node adapter writes', async () => {
    const registry = registryOf();
    await using srv = await httpServer(registry, { eventStore: false });
    const app = createFusionApp(registry, { eventStore: false });
    const call = modernCall(7, 'echo.say', { text: 'same bytes' });
    const wire = await postRaw(srv.url, call);
    const response = await app.fetch(
      new Request('http://127.0.0.1/mcp', {
        method: 'POST',
        headers: { ...call.headers, host: '127.0.0.1' },
        body: call.body,
      }),
    );
    // A genuine Response (not the node adapter's lazy view): hosts such as workerd check it natively.
    expect(Object.getPrototypeOf(response)).toBe(Response.prototype);
    expect([response.status, response.ok, response.headers.get('content-type')]).toEqual([
      200,
      true,
      'application/json',
    ]);
    expect(response.bodyUsed).toBe(false);
    expect(response.body).toBeInstanceOf(ReadableStream);
    const copy = response.clone();
    expect(await response.text()).toBe(wire.text);
    expect(response.bodyUsed).toBe(true);
    await expect(response.text()).rejects.toThrow(TypeError);
    expect(await copy.json()).toEqual(JSON.parse(wire.text));
    await app.close();
  });

  it('still streams SSE when a notification precedes the result, over the socket and to the SDK client', async () => {
    await using srv = await httpServer(registryOf(), { eventStore: false });
    const reply = await postRaw(srv.url, modernCall(3, 'work.progress', {}, { progressToken: 'p' }));
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('text/event-stream');
    expect(sseMessages(reply.text).map((m) => m.method ?? m.id)).toEqual([
      'notifications/progress',
      'notifications/progress',
      3,
    ]);
    await using client = await v2HttpClient(srv.url, 'auto');
    const seen: number[] = [];
    const result = await client.callTool(
      { name: 'work.progress', arguments: {} },
      { onprogress: (p: { progress: number }) => seen.push(p.progress) },
    );
    expect(texts(result)).toEqual(['done']);
    expect(seen).toEqual([1, 2]);
  });

  it('aborts the handler of a call whose client went away over the socket, and keeps serving', async () => {
    await using srv = await httpServer(registryOf(), { eventStore: false });
    holds.length = 0;
    const call = modernCall(4, 'work.hold', {});
    const req = httpRequest(srv.url, { method: 'POST', headers: call.headers });
    req.on('error', () => {});
    req.end(call.body);
    await until(() => holds.length === 1, 'the call to start');
    req.destroy();
    await until(() => holds[0]!.aborted, 'the handler to see the client go away');
    const next = await postRaw(srv.url, modernCall(5, 'echo.say', { text: 'after' }));
    expect(JSON.parse(next.text).result.content[0].text).toBe('said after');
  });
});
