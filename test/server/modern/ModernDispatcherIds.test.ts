import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../../../src/index.js';
import { messagesOf } from '../../_helpers/raw.js';
import { call, heldCalls, textOf } from '../_heldCalls.js';

const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

const held = heldCalls();
let server: Awaited<ReturnType<typeof startServer>>;
beforeAll(async () => {
  server = await startServer(held.registry, { port: 0 });
});
afterAll(() => server.close());

/** One modern (2026-07-28) tools/call over real HTTP: no session, the envelope in `_meta`. */
function modernCall(id: number, name: 'hold' | 'echo', value: string, signal?: AbortSignal): Promise<Response> {
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': 'tools/call',
    'mcp-name': name,
  };
  const body = JSON.stringify(call(id, name, value, { _meta: ENVELOPE }));
  return fetch(server.url, { method: 'POST', headers, body, ...(signal !== undefined ? { signal } : {}) });
}

describe('modern era: two HTTP requests with one JSON-RPC id', () => {
  it('run independently, each answered on its own request under the id it sent', async () => {
    const first = modernCall(7, 'hold', 'modern-a');
    const second = modernCall(7, 'hold', 'modern-b');
    await Promise.all([held.started('modern-a'), held.started('modern-b')]);

    held.release('modern-b');
    const b = await messagesOf(await second);
    expect(b.map((m) => [m.id, textOf(m)])).toEqual([[7, 'held modern-b']]);
    held.release('modern-a');
    const a = await messagesOf(await first);
    expect(a.map((m) => [m.id, textOf(m)])).toEqual([[7, 'held modern-a']]);
  });

  it('cancels only the request whose client went away; the other answers', async () => {
    const gone = new AbortController();
    const first = modernCall(8, 'hold', 'modern-gone', gone.signal);
    const second = modernCall(8, 'hold', 'modern-stays');
    await Promise.all([held.started('modern-gone'), held.started('modern-stays')]);

    gone.abort();
    await expect(first).rejects.toThrow();
    await held.aborted('modern-gone');
    held.release('modern-stays');
    const stays = await messagesOf(await second);
    expect(stays.map((m) => [m.id, textOf(m)])).toEqual([[8, 'held modern-stays']]);
  });
});
