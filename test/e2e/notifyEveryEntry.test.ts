// notifyResourceUpdated / notifyResourceDeleted on every entry point: startServer over HTTP and over stdio
// (the app and a plain attachToServer are covered in protocol-features.test.ts).
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { describe, expect, it } from 'vitest';
import { initFusion, startServer } from '../../src/index.js';
import { sourceChild } from '../_helpers/sourceChild.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Records resource notifications; `next(n)` resolves when `n` have arrived. */
function recorder(client: Client) {
  const seen: string[] = [];
  let waiting: { count: number; resolve: () => void } | undefined;
  const push = (entry: string): void => {
    seen.push(entry);
    if (waiting !== undefined && seen.length >= waiting.count) waiting.resolve();
  };
  client.setNotificationHandler('notifications/resources/updated', (n) => push(`updated ${n.params.uri}`));
  client.setNotificationHandler('notifications/resources/list_changed', () => push('list_changed'));
  const next = (count: number): Promise<void> =>
    seen.length >= count ? Promise.resolve() : new Promise((resolve) => (waiting = { count, resolve }));
  return { seen, next };
}

describe('startServer announces resource updates and deletions', () => {
  it('over HTTP: the subscribed session hears the update, then the deletion and list_changed', async () => {
    const f = initFusion();
    const registry = f.registry().registerAll(
      f
        .resource('test://watched')
        .describe('Watched')
        .handle(() => 'now'),
    );
    const server = await startServer(registry, { port: 0, resourceSubscriptions: true });
    const client = new Client({ name: 'http', version: '1.0.0' });
    try {
      // Notifications outside a request travel on the session's GET stream: wait until its response arrived.
      let streamOpen!: () => void;
      const opened = new Promise<void>((resolve) => (streamOpen = resolve));
      const fetchSpy = async (url: string | URL, init?: RequestInit): Promise<Response> => {
        const response = await fetch(url, init);
        if (init?.method === 'GET' && response.ok) streamOpen();
        return response;
      };
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { fetch: fetchSpy }));
      await opened;
      const { seen, next } = recorder(client);
      await client.subscribeResource({ uri: 'test://watched' });
      await server.notifyResourceUpdated('test://watched');
      await next(1);
      await server.notifyResourceDeleted('test://watched');
      await next(3);
      expect(seen).toEqual(['updated test://watched', 'updated test://watched', 'list_changed']);
    } finally {
      await client.close();
      await server.close();
    }
  });

  it('over stdio: the same, from tools that call the handle startServer returned', async () => {
    const client = new Client({ name: 'stdio', version: '1.0.0' });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: sourceChild('test/e2e/fixtures/watchedStdio.ts'),
      cwd: root,
      stderr: 'pipe',
    });
    await client.connect(transport);
    try {
      const { seen, next } = recorder(client);
      await client.subscribeResource({ uri: 'test://watched' });
      await client.callTool({ name: 'touch', arguments: {} });
      await next(1);
      await client.callTool({ name: 'drop', arguments: {} });
      await next(3);
      expect(seen).toEqual(['updated test://watched', 'updated test://watched', 'list_changed']);
      // The subscription ended with the deletion: a later update reaches nobody (the next call's answer
      // arrives after any notification the server sent before it, on the same ordered stream).
      await client.callTool({ name: 'touch', arguments: {} });
      expect(seen).toHaveLength(3);
    } finally {
      await client.close();
    }
  });
});
