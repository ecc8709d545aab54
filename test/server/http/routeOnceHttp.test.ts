import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { devTokens, initFusion } from '../../../src/index.js';
import { resolveCall } from '../../../src/runtime/stages/pickAction.js';
import type * as PickAction from '../../../src/runtime/stages/pickAction.js';
import { httpServer, texts } from '../../_helpers/clients.js';
import { messagesOf } from '../../_helpers/raw.js';

// A spy on the one resolver of a tools/call (the real function runs): every resolution of a call is counted.
vi.mock('../../../src/runtime/stages/pickAction.js', async (importOriginal) => {
  const real = await importOriginal<typeof PickAction>();
  return { ...real, resolveCall: vi.fn(real.resolveCall) };
});
const resolutions = vi.mocked(resolveCall);

function registry() {
  const f = initFusion();
  return f.registry().registerAll(
    f.query('notes.list').handle(() => 'notes'),
    f
      .mutation('notes.delete')
      .withString('id')
      .requireScopes('notes:write')
      .handle(({ id }) => `deleted ${id}`),
    f
      .tool('admin')
      .action({ name: 'stats', readOnly: true, handler: () => 'stats' })
      .action({ name: 'purge', destructive: true, requireScopes: ['admin'], handler: () => 'purged' }),
  );
}

const auth = { verifier: devTokens({ 'dev-admin': ['admin', 'notes:write'] }) };
const bearer = { Authorization: 'Bearer dev-admin' };

async function connect(url: string, mode: 'legacy' | 'auto') {
  const client = new Client(
    { name: 'route-once', version: '1.0.0' },
    mode === 'auto' ? { versionNegotiation: { mode } } : {},
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: bearer } }));
  return Object.assign(client, { [Symbol.asyncDispose]: () => client.close() });
}

/** One raw POST over HTTP with the bearer token (`sid`: the legacy session). */
function post(url: string, body: unknown, sid?: string): Promise<Response> {
  const headers: Record<string, string> = {
    ...bearer,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    ...(sid === undefined ? {} : { 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25' }),
  };
  return fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
}

const call = (id: number, name: string, args: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});

beforeEach(() => {
  resolutions.mockClear();
});

describe('a tools/call over HTTP is resolved once: the front resolves it for its scope challenge, the runtime takes it', () => {
  for (const mode of ['legacy', 'auto'] as const) {
    it(`${mode === 'auto' ? 'modern' : 'legacy'}: one resolution per call, flat and grouped`, async () => {
      await using srv = await httpServer(registry(), { auth });
      await using client = await connect(srv.url, mode);
      resolutions.mockClear();
      expect(texts(await client.callTool({ name: 'notes.delete', arguments: { id: 'n1' } }))).toEqual(['deleted n1']);
      expect(resolutions).toHaveBeenCalledTimes(1);
      resolutions.mockClear();
      expect(texts(await client.callTool({ name: 'admin', arguments: { action: 'purge' } }))).toEqual(['purged']);
      expect(resolutions).toHaveBeenCalledTimes(1);
      resolutions.mockClear();
      expect(texts(await client.callTool({ name: 'notes.list', arguments: {} }))).toEqual(['notes']);
      expect(resolutions).toHaveBeenCalledTimes(1);
    });
  }

  it('legacy batch: one resolution per call of the batch', async () => {
    await using srv = await httpServer(registry(), { auth });
    const init = await post(srv.url, {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    const sid = init.headers.get('mcp-session-id')!;
    await init.text();
    await (await post(srv.url, { jsonrpc: '2.0', method: 'notifications/initialized' }, sid)).text();
    resolutions.mockClear();
    const batch = [
      call(1, 'notes.delete', { id: 'a' }),
      call(2, 'admin', { action: 'purge' }),
      call(3, 'admin', { action: 'stats' }),
    ];
    const answers = await messagesOf(await post(srv.url, batch, sid));
    const byId = new Map(answers.map((m) => [m.id, m.result.content[0].text]));
    expect([byId.get(1), byId.get(2), byId.get(3)]).toEqual(['deleted a', 'purged', 'stats']);
    expect(resolutions).toHaveBeenCalledTimes(3);
  });

  it('without the front resolving (no auth), the runtime resolves each call once itself', async () => {
    await using srv = await httpServer(registry());
    await using client = await connect(srv.url, 'legacy');
    resolutions.mockClear();
    expect(texts(await client.callTool({ name: 'admin', arguments: { action: 'stats' } }))).toEqual(['stats']);
    expect(resolutions).toHaveBeenCalledTimes(1);
  });
});
