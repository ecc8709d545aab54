import { InMemoryTransport, McpServer, Server, type JSONRPCMessage } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { buildServer } from '../../src/server/buildServer.js';
import { initFusion } from '../../src/index.js';

/** A registry whose tool reports what its handler received: the arguments and the request's progress token. */
function probeRegistry() {
  const f = initFusion();
  return f.registry().registerAll(
    f
      .query('probe.echo')
      .withString('text')
      .handle(({ text }, _ctx, extra) => JSON.stringify({ text, meta: extra.meta })),
  );
}

type Connectable = { connect(transport: InMemoryTransport): Promise<void> };

/** A raw JSON-RPC line to `server` after a legacy handshake: `send` resolves to the response of one request. */
async function rawLine(server: Connectable) {
  const [mine, theirs] = InMemoryTransport.createLinkedPair();
  const waiting = new Map<unknown, (message: any) => void>();
  mine.onmessage = (message: JSONRPCMessage) => {
    const id = (message as { id?: unknown }).id;
    waiting.get(id)?.(message);
    waiting.delete(id);
  };
  await server.connect(theirs);
  await mine.start();
  let next = 0;
  const send = (method: string, params: unknown): Promise<any> => {
    const id = ++next;
    const answered = new Promise((resolve) => waiting.set(id, resolve));
    void mine.send({ jsonrpc: '2.0', id, method, params } as JSONRPCMessage);
    return answered;
  };
  await send('initialize', {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'raw', version: '1' },
  });
  await mine.send({ jsonrpc: '2.0', method: 'notifications/initialized' } as JSONRPCMessage);
  return send;
}

const servers: Array<[string, () => Connectable]> = [
  [
    'a low-level SDK Server',
    () => {
      const server = new Server({ name: 'low', version: '1' });
      probeRegistry().attachToServer(server);
      return server;
    },
  ],
  [
    'an McpServer',
    () => {
      const server = new McpServer({ name: 'mcp', version: '1' });
      probeRegistry().attachToServer(server);
      return server;
    },
  ],
  ['mcp-fusion’s own server', () => buildServer(probeRegistry().runtime({}), {}, 'legacy').server],
];

describe('tools/call installed with the SDK Server’s own request check', () => {
  it.each(servers)(
    'on %s, malformed requests get the SDK’s -32602 and valid ones reach the handler whole',
    async (_, make) => {
      const send = await rawLine(make());
      for (const params of [{ name: 42 }, { name: 'probe.echo', arguments: 'x' }, {}]) {
        const answer = await send('tools/call', params);
        expect(answer.error?.code, JSON.stringify(params)).toBe(-32602);
        expect(answer.error?.message).toMatch(/Invalid tools\/call request/);
      }
      const ok = await send('tools/call', {
        name: 'probe.echo',
        arguments: { text: 'hi' },
        _meta: { progressToken: 7 },
      });
      expect(ok.error).toBeUndefined();
      expect(JSON.parse(ok.result.content[0].text)).toEqual({ text: 'hi', meta: { progressToken: 7 } });
      const invalid = await send('tools/call', { name: 'probe.echo', arguments: { text: 3 } });
      expect(invalid.result?.isError).toBe(true);
    },
  );
});
