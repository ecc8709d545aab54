import { Server } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { FusionServer } from '../../src/adapter/FusionServer.js';
import { createFusionApp, initFusion } from '../../src/index.js';
import { texts, v2FetchClient } from '../_helpers/clients.js';

function echoRegistry() {
  const f = initFusion();
  return f.registry().registerAll(
    f
      .query('echo.say')
      .input(z.object({ text: z.string() }))
      .handle(async ({ text }) => `said ${text}`),
  );
}

/** Counts reads of the SDK's protected handler-table accessor on every `Server` (ours and the user's). */
let reads = 0;
function watchHandlerTable(): void {
  Object.defineProperty(Server.prototype, '_getRequestHandler', {
    configurable: true,
    value(this: Server, method: string) {
      reads++;
      return (
        Object.getPrototypeOf(Server.prototype) as { _getRequestHandler(m: string): unknown }
      )._getRequestHandler.call(this, method);
    },
  });
}
afterEach(() => {
  delete (Server.prototype as unknown as Record<string, unknown>)._getRequestHandler;
  reads = 0;
});

describe('mcp-fusion’s own servers', () => {
  it('serve both eras and a traced handshake without reading the SDK’s handler table', async () => {
    watchHandlerTable();
    const app = createFusionApp(echoRegistry(), { tracing: true });
    for (const mode of ['legacy', 'auto'] as const) {
      await using client = await v2FetchClient(app, mode);
      expect(client.getProtocolEra()).toBe(mode === 'legacy' ? 'legacy' : 'modern');
      expect(texts(await client.callTool({ name: 'echo.say', arguments: { text: mode } }))).toEqual([`said ${mode}`]);
    }
    expect(reads).toBe(0);
    await app.close();
  });

  it('are FusionServers; a user’s own Server is composed with, which reads the table (the check above sees reads)', () => {
    watchHandlerTable();
    const registry = echoRegistry();
    registry.attachToServer(new FusionServer({ name: 'own', version: '1' }));
    expect(reads).toBe(0);
    registry.attachToServer(new Server({ name: 'theirs', version: '1' }));
    expect(reads).toBeGreaterThan(0);
  });
});
