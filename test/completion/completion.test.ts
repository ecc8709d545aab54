import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport, Server } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { normalizeCompletion } from '../../src/completion/completers.js';
import { initFusion } from '../../src/index.js';
import type { ToolRegistry } from '../../src/registry/ToolRegistry.js';
import { createFusionApp } from '../../src/server/app/createFusionApp.js';
import { v2FetchClient } from '../_helpers/clients.js';

interface Ctx {
  cities: string[];
}
const f = initFusion<Ctx>();
const CITIES = ['paris', 'park city', 'parma', 'porto', 'prague'];

function registry(): ToolRegistry<Ctx> {
  return f.registry().registerAll(
    f
      .query('noop')
      .describe('Does nothing')
      .handle(() => 'ok'),
    f
      .prompt('trip')
      .describe('Plan a trip')
      .argument('from', { required: true })
      .argument('to', { required: true })
      .complete('from', (value, _context, ctx) => ctx.cities.filter((c) => c.startsWith(value)))
      .complete('to', (value, { arguments: chosen }) => ({
        values: CITIES.filter((c) => c.startsWith(value) && c !== chosen.from),
        total: 42,
      }))
      .handle(({ from, to }) => `From ${from} to ${to}`),
    f
      .prompt('plain')
      .describe('No completers')
      .argument('x')
      .handle(() => 'plain'),
    f
      .resourceTemplate('test://cities/{name}/weather')
      .describe('Weather by city')
      .complete('name', (value) => CITIES.filter((c) => c.includes(value)))
      .handle((_uri, { name }) => `Sunny in ${name}`),
    f
      .resource('test://fixed')
      .describe('A fixed resource')
      .handle(() => 'fixed'),
  );
}
const options = { contextFactory: (): Ctx => ({ cities: CITIES }) };

async function legacyClient(reg: ToolRegistry<Ctx>): Promise<Client & AsyncDisposable> {
  const server = new Server({ name: 'completion', version: '1.0.0' }, { capabilities: {} });
  reg.attachToServer(server, options);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(clientSide);
  return Object.assign(client, { [Symbol.asyncDispose]: () => client.close() });
}

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (e: { code?: number; message: string }) => ({ code: e.code, message: e.message }),
  );

describe('completion/complete', () => {
  it('offers the completions capability and completes prompt arguments with the arguments chosen so far', async () => {
    await using client = await legacyClient(registry());
    expect(client.getServerCapabilities()?.completions).toEqual({});
    expect(
      await client.complete({ ref: { type: 'ref/prompt', name: 'trip' }, argument: { name: 'from', value: 'pa' } }),
    ).toMatchObject({ completion: { values: ['paris', 'park city', 'parma'] } });
    const to = await client.complete({
      ref: { type: 'ref/prompt', name: 'trip' },
      argument: { name: 'to', value: 'pa' },
      context: { arguments: { from: 'paris' } },
    });
    expect(to.completion).toEqual({ values: ['park city', 'parma'], total: 42, hasMore: true });
  });

  it('completes template variables by the template, and an argument without completer gets no values', async () => {
    await using client = await legacyClient(registry());
    const weather = await client.complete({
      ref: { type: 'ref/resource', uri: 'test://cities/{name}/weather' },
      argument: { name: 'name', value: 'ar' },
    });
    expect(weather.completion.values).toEqual(['paris', 'park city', 'parma']);
    expect(
      (await client.complete({ ref: { type: 'ref/prompt', name: 'plain' }, argument: { name: 'x', value: '' } }))
        .completion,
    ).toEqual({ values: [] });
    expect(
      (
        await client.complete({
          ref: { type: 'ref/resource', uri: 'test://fixed' },
          argument: { name: 'x', value: '' },
        })
      ).completion,
    ).toEqual({ values: [] });
  });

  it('answers -32602 for an unknown prompt or template, naming what exists', async () => {
    await using client = await legacyClient(registry());
    expect(
      await refusal(client.complete({ ref: { type: 'ref/prompt', name: 'nope' }, argument: { name: 'a', value: '' } })),
    ).toEqual({
      code: -32602,
      message: expect.stringContaining('Available prompts: trip, plain'),
    });
    expect(
      await refusal(
        client.complete({ ref: { type: 'ref/resource', uri: 'test://nope/{x}' }, argument: { name: 'x', value: '' } }),
      ),
    ).toEqual({
      code: -32602,
      message: expect.stringContaining('Templates: test://cities/{name}/weather'),
    });
  });

  it('turns a failing completer into -32603 naming the argument', async () => {
    const reg = f.registry().register(
      f
        .prompt('broken')
        .describe('x')
        .argument('a')
        .complete('a', () => {
          throw new Error('index offline');
        })
        .handle(() => 'x'),
    );
    await using client = await legacyClient(reg);
    expect(
      await refusal(
        client.complete({ ref: { type: 'ref/prompt', name: 'broken' }, argument: { name: 'a', value: '' } }),
      ),
    ).toEqual({
      code: -32603,
      message: expect.stringContaining('Completion of "a" of prompt "broken" failed: index offline'),
    });
  });

  it('works on modern (2026-07-28) requests too', async () => {
    const app = createFusionApp(registry(), options);
    await using client = await v2FetchClient(app, 'auto');
    expect(client.getProtocolEra()).toBe('modern');
    expect(
      (await client.complete({ ref: { type: 'ref/prompt', name: 'trip' }, argument: { name: 'from', value: 'po' } }))
        .completion.values,
    ).toEqual(['porto']);
    await app.close();
  });

  it('is not offered when nothing declares a completer', async () => {
    await using client = await legacyClient(
      f.registry().register(
        f
          .prompt('p')
          .describe('x')
          .handle(() => 'x'),
      ),
    );
    expect(client.getServerCapabilities()?.completions).toBeUndefined();
  });
});

describe('.complete() at build time', () => {
  it('refuses a completer for an undeclared argument or variable, a duplicate and a non-function', () => {
    expect(() =>
      f
        .prompt('p')
        .argument('a')
        .complete('a', () => [])
        .complete('a', () => [])
        .handle(() => 'x'),
    ).toThrow(/two completers for "a"/);
    expect(() =>
      f
        .prompt('p')
        .argument('a')
        .complete('a', 'nope' as never),
    ).toThrow(/pass \(value, context, ctx, extra\)/);
    expect(() =>
      f
        .prompt('p')
        .args(z.object({ a: z.string() }))
        .complete('b' as never, () => [])
        .handle(() => 'x'),
    ).toThrow(/completes "b", which is not one of its arguments\. Its arguments: a\./);
    expect(() =>
      f
        .resourceTemplate('app://x/{id}')
        .complete('other' as never, () => [])
        .handle(() => 'x'),
    ).toThrow(/completes "other", which is not one of its variables/);
  });

  it('keeps at most 100 values and says there are more', () => {
    const many = Array.from({ length: 150 }, (_, i) => `v${i}`);
    expect(normalizeCompletion(many, 'x')).toEqual({ values: many.slice(0, 100), total: 150, hasMore: true });
    expect(normalizeCompletion({ values: ['a'], hasMore: false }, 'x')).toEqual({ values: ['a'], hasMore: false });
    expect(() => normalizeCompletion([1] as never, 'Completion of "a"')).toThrow(
      /Completion of "a" returned .* must return an array of strings/,
    );
  });
});
