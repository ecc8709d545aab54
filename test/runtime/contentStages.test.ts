import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { initFusion, type ServeOptions } from '../../src/index.js';
import { buildServer } from '../../src/server/buildServer.js';
import { texts } from '../_helpers/clients.js';

const f = initFusion();

/** A real SDK client (legacy era, in memory) and the runtime it talks to. */
async function connect(registry: ReturnType<typeof f.registry>, options: ServeOptions<void>) {
  const runtime = registry.runtime(options);
  const { server } = buildServer(runtime, options, 'legacy');
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'content-stages', version: '1.0.0' });
  await server.connect(serverSide);
  await client.connect(clientSide);
  return Object.assign(client, {
    runtime,
    [Symbol.asyncDispose]: async () => (await client.close(), runtime.dispose()),
  });
}

describe('prompts and resources run through the stage list', () => {
  it('times a prompt out as a tool is timed out, with the same text, and aborts its signal', async () => {
    let aborted: unknown;
    const registry = f.registry().registerAll(
      f.prompt('slow').handle(async (_args, _ctx, extra) => {
        await new Promise((resolve) => extra.signal.addEventListener('abort', resolve, { once: true }));
        aborted = extra.signal.reason;
        return 'too late';
      }),
    );
    await using client = await connect(registry, { timeoutMs: 20 });
    await expect(client.getPrompt({ name: 'slow' })).rejects.toThrow(
      'Prompt "slow" timed out after 20 ms and was cancelled. Its effects may be partial: check the current state before retrying.',
    );
    expect(String(aborted)).toContain('timed out after 20 ms');
  });

  it('counts a running resource read for graceful drain', async () => {
    let release!: () => void;
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const registry = f.registry().registerAll(
      f.resource('app://report').handle(async () => {
        started();
        await new Promise<void>((resolve) => (release = resolve));
        return 'report';
      }),
    );
    await using client = await connect(registry, {});
    const read = client.readResource({ uri: 'app://report' });
    await running;
    expect(client.runtime.inFlight).toBe(1);
    let drained = false;
    const drain = client.runtime.drain(60_000).then(() => (drained = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(drained, 'the drain waits for the read').toBe(false);
    release();
    expect((await read).contents[0]).toMatchObject({ text: 'report' });
    await drain;
    expect(client.runtime.inFlight).toBe(0);
  });

  it('rate-limits prompts, resources and completion with the server-wide limit, apart from tool calls', async () => {
    const registry = f.registry().registerAll(
      f.query('notes.list').handle(() => 'notes'),
      f.prompt('hello').handle(() => 'hi'),
      f.resource('app://readme').handle(() => 'read me'),
    );
    await using client = await connect(registry, { rateLimit: { max: 2, windowMs: 60_000 } });
    await client.getPrompt({ name: 'hello' });
    await client.readResource({ uri: 'app://readme' });
    await expect(client.getPrompt({ name: 'hello' })).rejects.toThrow(
      /Prompt "hello" was not run: rate limit reached \(2 requests per 60 s for this session\)\. Retry after \d+ s; nothing was done\./,
    );
    expect(
      texts(await client.callTool({ name: 'notes.list', arguments: {} })),
      'tool calls keep their own count',
    ).toEqual(['notes']);
  });

  it('answers a failing context factory with one text: an isError result for a tool, an error for a prompt', async () => {
    const registry = f.registry().registerAll(
      f.query('notes.list').handle(() => 'notes'),
      f.prompt('hello').handle(() => 'hi'),
    );
    const contextFactory = (): never => {
      throw new Error('database unreachable');
    };
    await using client = await connect(registry, { contextFactory, logLevel: 'silent' });
    const tool = await client.callTool({ name: 'notes.list', arguments: {} });
    expect(tool.isError).toBe(true);
    const toolText = texts(tool)[0]!;
    expect(toolText).toMatch(
      /^Tool "notes\.list" could not run: the server failed to prepare the request context \(database unreachable\)\./,
    );
    const promptError = await client.getPrompt({ name: 'hello' }).then(
      () => undefined,
      (error: unknown) => (error as Error).message,
    );
    expect(promptError).toMatch(
      /Prompt "hello" could not run: the server failed to prepare the request context \(database unreachable\)\./,
    );
    const advice = (text: string): string =>
      text.slice(text.indexOf(').') + 2).replace(/call "notes\.list" again|send the request again/, 'retry');
    expect(advice(promptError!), 'the same advice').toBe(advice(toolText));
  });
});
