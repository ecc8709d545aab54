import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { initFusion, MemoryEventStore, startServer } from '../../src/index.js';
import { dropProxy } from '../_helpers/dropProxy.js';
import { until } from '../redis/helpers.js';

const f = initFusion();
const uris = [1, 2, 3, 4, 5].map((n) => `test://r${n}`);
const registry = f.registry().registerAll(
  f
    .query('ping')
    .describe('Answers pong')
    .handle(() => 'pong'),
  f
    .prompt('greet')
    .describe('A greeting')
    .handle(() => 'Hello.'),
  ...uris.map((uri, i) =>
    f
      .resource(uri)
      .name(`r${i + 1}`)
      .describe('A watched resource')
      .mimeType('text/plain')
      .handle(() => uri),
  ),
);

/** A modern (2026-07-28) SDK client over HTTP through `url` that records what it hears and its resume requests. */
async function modernClient(url: URL) {
  const heard: string[] = [];
  const resumes: Array<{ lastEventId: string | null; status: number; message?: string }> = [];
  const client = new Client({ name: 'resume', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
  client.setNotificationHandler('notifications/resources/updated', (n) => void heard.push(n.params.uri));
  client.setNotificationHandler('notifications/prompts/list_changed', () => void heard.push('prompts/list_changed'));
  const transport = new StreamableHTTPClientTransport(url, {
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      const lastEventId = new Headers(init?.headers).get('last-event-id');
      if (init?.method === 'GET' && response.ok) resumes.push({ lastEventId, status: response.status });
      else if (init?.method === 'GET')
        resumes.push({
          lastEventId,
          status: response.status,
          message: ((await response.clone().json()) as { error: { message: string } }).error.message,
        });
      return response;
    },
  });
  await client.connect(transport);
  expect(client.getProtocolEra()).toBe('modern');
  return { client, heard, resumes, [Symbol.asyncDispose]: () => client.close() };
}

describe('resumable modern listen streams (SDK client over HTTP)', () => {
  it('a listen stream that drops is resumed with Last-Event-ID: the events it missed arrive once, in order, then live ones', async () => {
    const server = await startServer(registry, {
      port: 0,
      resourceSubscriptions: true,
      eventStore: new MemoryEventStore(),
      sseRetryMs: 20,
    });
    await using proxy = await dropProxy(Number(new URL(server.url).port));
    try {
      await using c = await modernClient(proxy.url);
      const subscription = await c.client.listen({ resourceSubscriptions: uris });
      expect(subscription.honoredFilter).toEqual({ resourceSubscriptions: uris });
      await server.notifyResourceUpdated(uris[0]!);
      await until(() => c.heard.length === 1, 3_000, 'the first update');
      proxy.hold();
      proxy.drop();
      for (const uri of uris.slice(1, 4)) await server.notifyResourceUpdated(uri);
      proxy.release();
      await until(() => c.resumes.length === 1, 3_000, 'the resume');
      expect(c.resumes[0]!.status).toBe(200);
      expect(c.resumes[0]!.lastEventId).toMatch(/^l:[0-9a-f]{16}\/[0-9a-f-]{36}#[0-9a-f]+\.\d+$/);
      await until(() => c.heard.length === 4, 3_000, 'the missed updates');
      await server.notifyResourceUpdated(uris[4]!);
      await until(() => c.heard.length === 5, 3_000, 'the live update');
      expect(c.heard).toEqual(uris);
      await subscription.close();
    } finally {
      await server.close();
    }
  });

  it('listen streams that asked for promptsListChanged hear notifyPromptsChanged()', async () => {
    const server = await startServer(registry, { port: 0, eventStore: new MemoryEventStore() });
    try {
      await using c = await modernClient(new URL(server.url));
      const subscription = await c.client.listen({ promptsListChanged: true });
      expect(subscription.honoredFilter).toEqual({ promptsListChanged: true });
      server.app!.notifyPromptsChanged();
      await until(() => c.heard.length === 1, 3_000, 'prompts/list_changed');
      expect(c.heard).toEqual(['prompts/list_changed']);
      await subscription.close();
    } finally {
      await server.close();
    }
  });

  it('refuses to resume a listen stream of another principal, or one that no longer records, saying what to do', async () => {
    const server = await startServer(registry, {
      port: 0,
      resourceSubscriptions: true,
      eventStore: new MemoryEventStore(),
      listenResumeMs: 50,
    });
    try {
      const headers = { accept: 'text/event-stream', 'mcp-protocol-version': '2026-07-28' };
      const unknown = await fetch(server.url, {
        headers: { ...headers, 'last-event-id': 'l:0000000000000000/nope#ab.1' },
      });
      expect(unknown.status).toBe(404);
      expect(((await unknown.json()) as { error: { message: string } }).error.message).toBe(
        'Cannot resume: Last-Event-ID "l:0000000000000000/nope#ab.1" names no listen stream of yours that is still stored (it ended, or outlived its resume window). Send subscriptions/listen again (and list again what you follow).',
      );
    } finally {
      await server.close();
    }
  });
});
