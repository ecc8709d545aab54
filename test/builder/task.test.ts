import { describe, expect, it } from 'vitest';
import { initFusion, JsonRpcCode, WireError } from '../../src/index.js';
import { createTestClient } from '../../src/testing/index.js';

const f = initFusion();

describe('.task()', () => {
  it('declares optional support with a one-hour TTL and a one-second poll interval by default, and runs up to the TTL', () => {
    const tool = f
      .action('reports.generate')
      .task()
      .handle(() => 'ok');
    expect(tool.task).toEqual({
      mode: 'optional',
      ttlMs: 3_600_000,
      pollIntervalMs: 1_000,
      onLost: 'fail',
      maxAttempts: 1,
    });
    expect(tool.timeoutMs).toBe(3_600_000);
    const timed = f
      .action('reports.quick')
      .task({ mode: 'required', ttlMs: 60_000, pollIntervalMs: 250 })
      .timeout(5_000)
      .handle(() => 'ok');
    expect(timed.task).toEqual({
      mode: 'required',
      ttlMs: 60_000,
      pollIntervalMs: 250,
      onLost: 'fail',
      maxAttempts: 1,
    });
    expect(
      f
        .action('x')
        .task({ onLost: 'retry' })
        .handle(() => 'ok').task,
    ).toMatchObject({ onLost: 'retry', maxAttempts: 3 });
    expect(timed.timeoutMs).toBe(5_000);
    expect(f.query('plain').handle(() => 'ok').task).toBeUndefined();
  });

  it('refuses a bad mode or duration, naming the tool and the fix', () => {
    expect(() => f.action('a').task({ mode: 'always' as 'optional' })).toThrowErrorMatchingInlineSnapshot(
      `[DefinitionError: Tool "a" has .task({ mode: "always" }); use "optional" or "required".]`,
    );
    expect(() => f.action('a').task({ ttlMs: 0 })).toThrowErrorMatchingInlineSnapshot(
      `[DefinitionError: Tool "a" has .task({ ttlMs: 0 }); give a positive whole number of milliseconds.]`,
    );
    expect(() => f.action('a').task({ pollIntervalMs: 1.5 })).toThrowErrorMatchingInlineSnapshot(
      `[DefinitionError: Tool "a" has .task({ pollIntervalMs: 1.5 }); give a positive whole number of milliseconds.]`,
    );
  });

  it('refuses a bad takeover policy: an unknown onLost, attempts without retry, or out of 1 to 10', () => {
    expect(() => f.action('a').task({ onLost: 'skip' as 'fail' })).toThrowErrorMatchingInlineSnapshot(
      `[DefinitionError: Tool "a" has .task({ onLost: "skip" }); use "fail" or "retry".]`,
    );
    expect(() => f.action('a').task({ maxAttempts: 2 })).toThrowErrorMatchingInlineSnapshot(
      `[DefinitionError: Tool "a" has .task({ maxAttempts: 2 }) without onLost: "retry"; add onLost: "retry" or drop maxAttempts.]`,
    );
    expect(() => f.action('a').task({ onLost: 'retry', maxAttempts: 0 })).toThrowErrorMatchingInlineSnapshot(
      `[DefinitionError: Tool "a" has .task({ maxAttempts: 0 }); give a whole number from 1 to 10.]`,
    );
    expect(() => f.action('a').task({ onLost: 'retry', maxAttempts: 11 })).toThrowErrorMatchingInlineSnapshot(
      `[DefinitionError: Tool "a" has .task({ maxAttempts: 11 }); give a whole number from 1 to 10.]`,
    );
  });

  it('on a grouped builder, applies to every action and shows once on the listed tool', async () => {
    const tool = f
      .tool('reports')
      .task({ pollIntervalMs: 500 })
      .action({ name: 'generate', handler: () => 'generated' })
      .action({ name: 'export', handler: () => 'exported' });
    const registry = f.registry().register(tool);
    expect(registry.runtime({}).surface.tools.map((t) => [t.name, t.task?.pollIntervalMs])).toEqual([
      ['reports.generate', 500],
      ['reports.export', 500],
    ]);
    await using client = await createTestClient(registry);
    const listed = (await client.client.listTools()).tools;
    expect(listed.map((t) => [t.name, (t as { execution?: unknown }).execution])).toEqual([
      ['reports', { taskSupport: 'optional' }],
    ]);
  });
});

it('a WireError thrown by a handler reaches the client as that JSON-RPC error; any other error stays an isError result', async () => {
  const registry = f.registry().registerAll(
    f.action('wire').handle(() => {
      throw new WireError(JsonRpcCode.InvalidParams, 'the invoice is locked');
    }),
    f.action('plain').handle(() => {
      throw new Error('boom');
    }),
  );
  await using client = await createTestClient(registry);
  await expect(client.callTool('wire')).rejects.toMatchObject({
    code: -32602,
    message: expect.stringContaining('the invoice is locked'),
  });
  expect(await client.callTool('plain')).toMatchObject({ isError: true, content: [{ type: 'text', text: 'boom' }] });
});
