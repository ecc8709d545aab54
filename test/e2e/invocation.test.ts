import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport, Server } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { createFusionApp, initFusion } from '../../src/index.js';
import { texts, v2FetchClient } from '../_helpers/clients.js';
import { until } from '../_helpers/waitFor.js';

function fixture() {
  const f = initFusion();
  const seen = { started: 0, aborted: 0 };
  // work.late finishes when the test releases it (after its timeout answered), and says so.
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let finish!: () => void;
  const finished = new Promise<void>((resolve) => (finish = resolve));
  const registry = f.registry().registerAll(
    f.query('work.wait').handle(async (_i, _c, extra) => {
      seen.started++;
      // Runs until its signal aborts (the test cancels it).
      await new Promise<void>((resolve) => extra.signal.addEventListener('abort', () => (seen.aborted++, resolve())));
      return 'woke';
    }),
    f.query('work.progress').handle(async (_i, _c, extra) => {
      for (let i = 1; i <= 3; i++) await extra.progress(i, 3, `step ${i}`);
      return 'done';
    }),
    f
      .query('work.late')
      .timeout(20)
      .handle(async () => {
        await released;
        finish();
        return 'too late';
      }),
  );
  return { registry, seen, late: { release, finished } };
}

/** A legacy in-memory pair whose server-side messages are recorded. */
async function recorded(registry: ReturnType<typeof fixture>['registry']) {
  const server = new Server({ name: 's', version: '1' }, { capabilities: {} });
  registry.attachToServer(server);
  const [c, s] = InMemoryTransport.createLinkedPair();
  const sent: any[] = [];
  const send = s.send.bind(s);
  s.send = async (message, options) => {
    sent.push(message);
    return send(message, options);
  };
  await server.connect(s);
  const client = new Client({ name: 'c', version: '1' });
  await client.connect(c);
  return { client, sent };
}

describe('tool invocation, legacy era', () => {
  it('aborts the handler on notifications/cancelled and sends no result for it', async () => {
    const { registry, seen } = fixture();
    const { client, sent } = await recorded(registry);
    const controller = new AbortController();
    const call = client.callTool({ name: 'work.wait', arguments: {} }, { signal: controller.signal });
    await until(() => seen.started === 1, 'the handler to start');
    controller.abort();
    await expect(call).rejects.toThrow();
    await until(() => seen.aborted === 1, 'the handler to see the abort');
    // Nothing must follow: a late result would be sent before the answer of a call made after the handler ended.
    expect(texts(await client.callTool({ name: 'work.progress', arguments: {} }))).toEqual(['done']);
    expect(seen.aborted).toBe(1);
    const responses = sent.filter((m) => 'id' in m && ('result' in m || 'error' in m) && m.id !== 0);
    expect(responses.map((m) => m.result?.content?.[0]?.text)).toEqual(['done']);
    await client.close();
  });

  it('sends progress notifications in order when the client asks', async () => {
    const { registry } = fixture();
    const { client } = await recorded(registry);
    const progress: Array<{ progress: number; total?: number | undefined; message?: string | undefined }> = [];
    const result = await client.callTool(
      { name: 'work.progress', arguments: {} },
      { onprogress: (p) => progress.push(p) },
    );
    expect(texts(result)).toEqual(['done']);
    expect(progress).toEqual([
      { progress: 1, total: 3, message: 'step 1' },
      { progress: 2, total: 3, message: 'step 2' },
      { progress: 3, total: 3, message: 'step 3' },
    ]);
    await client.close();
  });

  it('answers exactly once when a handler finishes after its timeout', async () => {
    const { registry, late } = fixture();
    const { client, sent } = await recorded(registry);
    const result = await client.callTool({ name: 'work.late', arguments: {} });
    expect(result.isError).toBe(true);
    expect(texts(result)[0]).toBe(
      'Tool "work.late" timed out after 20 ms and was cancelled. Its effects may be partial: check the current state before retrying.',
    );
    late.release();
    await late.finished;
    // Its late result would be sent before the answer of a call made after the handler ended.
    expect(texts(await client.callTool({ name: 'work.progress', arguments: {} }))).toEqual(['done']);
    const answers = sent.filter((m) => 'result' in m && m.result?.content !== undefined);
    expect(answers.map((m) => m.result.content[0].text)).toEqual([texts(result)[0], 'done']);
    await client.close();
  });

  it('refuses calls over the per-session concurrency limit with a clear error', async () => {
    const { registry, seen } = fixture();
    const server = new Server({ name: 's', version: '1' }, { capabilities: {} });
    registry.attachToServer(server, { maxConcurrentCalls: 2 });
    const [c, s] = InMemoryTransport.createLinkedPair();
    await server.connect(s);
    const client = new Client({ name: 'c', version: '1' });
    await client.connect(c);
    const controllers = [new AbortController(), new AbortController()];
    const busy = controllers.map((ctl) =>
      client.callTool({ name: 'work.wait', arguments: {} }, { signal: ctl.signal }).catch(() => undefined),
    );
    await until(() => seen.started === 2, 'both calls to be running');
    const third = await client.callTool({ name: 'work.progress', arguments: {} });
    expect(third.isError).toBe(true);
    expect(texts(third)[0]).toBe(
      'Tool "work.progress" was not run: 2 calls are already running for this session, the most allowed at once. Wait for one to finish, then call it again.',
    );
    for (const ctl of controllers) ctl.abort();
    await Promise.all(busy);
    await client.close();
  });
});

describe('tool invocation, modern era', () => {
  it('times out with one isError result and an aborted signal', async () => {
    const { registry, late } = fixture();
    const app = createFusionApp(registry, {});
    await using client = await v2FetchClient(app, 'auto');
    expect(client.getProtocolEra()).toBe('modern');
    const result = await client.callTool({ name: 'work.late', arguments: {} });
    expect(result.isError).toBe(true);
    expect(texts(result)[0]).toMatch(/timed out after 20 ms/);
    late.release();
    await late.finished;
    await app.close();
  });

  it('aborts the handler when the request is cancelled', async () => {
    const { registry, seen } = fixture();
    const app = createFusionApp(registry, {});
    await using client = await v2FetchClient(app, 'auto');
    const controller = new AbortController();
    const call = client.callTool({ name: 'work.wait', arguments: {} }, { signal: controller.signal });
    await until(() => seen.started === 1, 'the handler to start');
    controller.abort();
    await expect(call).rejects.toThrow();
    await until(() => seen.aborted === 1, 'the handler to see the abort');
    await app.close();
  });

  it('sends progress in order on the request stream', async () => {
    const { registry } = fixture();
    const app = createFusionApp(registry, {});
    await using client = await v2FetchClient(app, 'auto');
    const progress: number[] = [];
    const result = await client.callTool(
      { name: 'work.progress', arguments: {} },
      { onprogress: (p) => progress.push(p.progress) },
    );
    expect(texts(result)).toEqual(['done']);
    expect(progress).toEqual([1, 2, 3]);
    await app.close();
  });
});
