import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport as V1InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server as V1Server } from '@modelcontextprotocol/sdk/server/index.js';
import { describe, expect, it, vi } from 'vitest';
import { detachedExtra } from '../../../src/advanced/index.js';
import { initFusion, type HandlerExtra } from '../../../src/index.js';
import { callToolAsTask, createTestClient, waitForTask } from '../../../src/testing/index.js';
import { texts } from '../../_helpers/clients.js';

/** A tool that destructures its extra, as handlers do, and reports what it got. */
function registry() {
  const f = initFusion();
  const seen: HandlerExtra[] = [];
  const reg = f.registry().registerAll(
    f.query('extra.inspect').handle(async (_input, _ctx, extra) => {
      seen.push(extra);
      const { signal, progress, log, elicit, sample, sealState, principal, session, sessionId, era, requestId } = extra;
      await progress(1, 2);
      await log('info', 'inspecting');
      await session!.set('visits', ((await session!.get<number>('visits')) ?? 0) + 1);
      return JSON.stringify({
        aborted: signal.aborted,
        functions: [progress, log, elicit, sample, sealState].every((fn) => typeof fn === 'function'),
        principal: principal.kind,
        principalKey: principal.key,
        sessionKey: session!.key,
        visits: await session!.get<number>('visits'),
        sessionId: sessionId === undefined ? 'none' : 'some',
        era,
        requestId: typeof requestId,
      });
    }),
    f
      .query('extra.wait')
      .timeout(40)
      .handle(async (_input, _ctx, { signal }) => {
        await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
        seen.push({ signal } as HandlerExtra);
        return 'never seen';
      }),
  );
  return { reg, seen };
}

describe("a handler's extra", () => {
  it('destructures like a plain object; its lazy parts (principal, session data, helpers) work, per session', async () => {
    const { reg, seen } = registry();
    await using client = await createTestClient(reg);
    const first = JSON.parse(texts(await client.callTool('extra.inspect'))[0]!);
    expect(first).toMatchObject({
      aborted: false,
      functions: true,
      principal: 'anonymous',
      visits: 1,
      era: 'legacy',
      requestId: 'number',
    });
    expect(first.principalKey).toMatch(/^a:/);
    const second = JSON.parse(texts(await client.callTool('extra.inspect'))[0]!);
    expect(second.visits, 'session data persists across calls of one session').toBe(2);
    expect(second.principalKey).toBe(first.principalKey);
    expect(seen[0], 'every request gets its own extra').not.toBe(seen[1]);
    await using other = await createTestClient(reg);
    const third = JSON.parse(texts(await other.callTool('extra.inspect'))[0]!);
    expect(third.visits, 'another session has its own data').toBe(1);
    expect(third.principalKey).not.toBe(first.principalKey);
  });

  it('gives a destructured signal that aborts at the timeout', async () => {
    const { reg, seen } = registry();
    await using client = await createTestClient(reg);
    const result = await client.callTool('extra.wait');
    expect(result.isError).toBe(true);
    expect(result._meta).toEqual({ 'fusion/timeout': { ms: 40 } });
    await vi.waitFor(() => expect(seen[0]?.signal.aborted).toBe(true), { timeout: 2_000, interval: 5 });
  });

  it('is the same on a v1 SDK server (@modelcontextprotocol/sdk)', async () => {
    const { reg } = registry();
    const server = new V1Server({ name: 'v1', version: '1' }, { capabilities: { logging: {} } });
    reg.attachToServer(server);
    const [c, s] = V1InMemoryTransport.createLinkedPair();
    await server.connect(s);
    const client = new V1Client({ name: 'c', version: '1' });
    await client.connect(c);
    const result = await client.callTool({ name: 'extra.inspect', arguments: {} });
    expect(JSON.parse(texts(result as never)[0]!)).toMatchObject({
      aborted: false,
      functions: true,
      principal: 'anonymous',
      visits: 1,
      era: 'legacy',
    });
    await client.close();
  });

  it('is the same on a v2 SDK server through the SDK client', async () => {
    const { reg } = registry();
    const { Server } = await import('@modelcontextprotocol/server');
    const server = new Server({ name: 'v2', version: '1' }, { capabilities: { logging: {} } });
    reg.attachToServer(server);
    const [c, s] = InMemoryTransport.createLinkedPair();
    await server.connect(s);
    const client = new Client({ name: 'c', version: '1' });
    await client.connect(c);
    const result = await client.callTool({ name: 'extra.inspect', arguments: {} });
    expect(JSON.parse(texts(result)[0]!)).toMatchObject({
      aborted: false,
      functions: true,
      principal: 'anonymous',
      visits: 1,
      era: 'legacy',
      sessionId: 'none',
    });
    await client.close();
  });

  it('is one shape for a call through the client, a task and a call made outside any request', async () => {
    const f = initFusion();
    const seen: Array<{ how: string; shape: unknown; principal: string }> = [];
    const note = (how: string, extra: HandlerExtra) =>
      seen.push({ how, shape: Object.getPrototypeOf(extra), principal: extra.principal.kind });
    const reg = f.registry().registerAll(
      f.query('shape.plain').handle(async (_input, _ctx, extra) => (note('plain', extra), 'plain')),
      f
        .query('shape.task')
        .task()
        .handle(async (_input, _ctx, extra) => (note('task', extra), 'task')),
    );
    await using client = await createTestClient(reg);
    expect(texts(await client.callTool('shape.plain'))).toEqual(['plain']);
    const task = await callToolAsTask(client, 'shape.task');
    expect((await waitForTask(client, task)).status).toBe('completed');
    // Outside any request (a script, a test): the runtime takes the extra detachedExtra built in the same shape.
    const authInfo = { token: 't', clientId: 'script', scopes: [] };
    const outside = await reg
      .runtime({})
      .tools.callTool('shape.plain', {}, { sessionKey: 'script', extra: detachedExtra({ authInfo }) });
    expect(texts(outside)).toEqual(['plain']);
    expect(seen.map(({ how, principal }) => [how, principal])).toEqual([
      ['plain', 'anonymous'],
      ['task', 'anonymous'],
      ['plain', 'client'],
    ]);
    expect(new Set(seen.map((s) => s.shape)).size).toBe(1);
  });
});
