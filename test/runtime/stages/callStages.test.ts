import { describe, expect, it } from 'vitest';
import type { ToolResponse } from '../../../src/protocol/types.js';
import { initFusion, StateMachineGate } from '../../../src/index.js';
import { composeStages, type CallStage, type ToolCall } from '../../../src/runtime/stages/callStages.js';
import { createTestClient } from '../../../src/testing/index.js';
import { texts } from '../../_helpers/clients.js';

const text = (t: string): ToolResponse => ({ content: [{ type: 'text', text: t }] });

describe('composeStages', () => {
  it('runs the stages in order around the handler; a stage may answer alone or rewrite the result', async () => {
    const seen: string[] = [];
    const tag =
      (name: string): CallStage =>
      async (call, next) => {
        seen.push(`>${name}`);
        const result = await next(call);
        seen.push(`<${name}`);
        return result;
      };
    const refuse: CallStage = async (call, next) => (call.args.refuse === true ? text('refused') : next(call));
    const upper: CallStage = async (call, next) => {
      const result = await next(call);
      return text(texts(result)[0]!.toUpperCase());
    };
    const run = composeStages([tag('a'), refuse, upper, tag('b')], async (call) => {
      seen.push('handler');
      return text(`ran ${String(call.args.x)}`);
    });
    const call = (args: Record<string, unknown>) => ({ args }) as unknown as ToolCall;
    expect(texts(await run(call({ x: 1 })))).toEqual(['RAN 1']);
    expect(seen).toEqual(['>a', '>b', 'handler', '<b', '<a']);
    seen.length = 0;
    expect(texts(await run(call({ refuse: true })))).toEqual(['refused']);
    expect(seen, 'the handler and later stages never run').toEqual(['>a', '<a']);
  });
});

describe('the call path of each tool', () => {
  const f = initFusion();
  const registry = f.registry().registerAll(
    f.query('notes.list').handle(() => 'notes'),
    f
      .mutation('notes.delete')
      .withString('id')
      .requireScopes('notes:write')
      .handle(({ id }) => `deleted ${id}`),
    f
      .mutation('mail.send')
      .rateLimit({ max: 1, windowMs: 10_000 })
      .handle(() => 'sent'),
    f
      .mutation('sprints.update')
      .invalidates('sprints.*')
      .handle(() => 'updated'),
  );

  it('has only the stages the tool uses', () => {
    const pipeline = registry.runtime({}).tools;
    expect(pipeline.stagesOf('notes.list')).toEqual(['switch', 'validate']);
    expect(pipeline.stagesOf('notes.delete')).toEqual(['switch', 'scopes', 'validate']);
    expect(pipeline.stagesOf('mail.send')).toEqual(['switch', 'validate', 'rateLimit']);
    expect(pipeline.stagesOf('sprints.update')).toEqual(['switch', 'validate', 'stateSync']);
    expect(pipeline.stagesOf('nope')).toBeUndefined();
  });

  it('adds the stages the options ask for to every tool', () => {
    const gate = new StateMachineGate({ id: 'flow', initial: 'idle', states: { idle: {} } });
    const runtime = registry.runtime({ maxConcurrentCalls: 2, rateLimit: { max: 100, windowMs: 1_000 }, fsm: gate });
    expect(runtime.tools.stagesOf('notes.list')).toEqual([
      'switch',
      'concurrency',
      'workflow',
      'validate',
      'rateLimit',
    ]);
    runtime.dispose();
  });

  it('keeps the refusals of the stages it runs', async () => {
    await using t = await createTestClient(registry);
    expect(texts(await t.callTool('mail.send'))).toEqual(['sent']);
    expect((await t.callTool('mail.send')).isError, 'the rate-limit stage refuses the second call').toBe(true);
    expect(texts(await t.callTool('notes.list')), 'another tool has no rate-limit stage').toEqual(['notes']);
  });

  it('validates a call before its rate limit: an invalid call spends no rate budget', async () => {
    await using t = await createTestClient(registry);
    const invalid = await t.callTool('mail.send', { to: 'everyone' });
    expect(invalid.isError).toBe(true);
    expect(texts(invalid)[0], 'refused for its arguments, not its rate').toContain('to');
    expect(texts(invalid).join(' ')).not.toMatch(/rate limit/i);
    expect(texts(await t.callTool('mail.send')), 'the one call of the window is still there').toEqual(['sent']);
    expect((await t.callTool('mail.send')).isError, 'and now it is spent').toBe(true);
  });
});

describe('registry.runtime', () => {
  it('is built once per options object and holds the content and features of that object', () => {
    const f = initFusion();
    const tools = f.registry().register(f.query('a').handle(() => 'a'));
    const options = { logging: true };
    const runtime = tools.runtime(options);
    expect(tools.runtime(options)).toBe(runtime);
    expect(runtime.content, 'no prompts or resources').toBeUndefined();
    expect(runtime.features.logging).toBe(true);
    expect(tools.runtime({}).features.logging).toBe(false);
    const synced = tools.runtime({
      stateSync: { policies: [{ match: 'a', cacheControl: 'no-store' }] },
      onWarning: () => {},
    });
    expect(synced.content?.hasResources, 'fusion://stale/{pattern} is served').toBe(true);
    tools.register(f.prompt('p').handle(() => 'p'));
    expect(tools.runtime(options), 'registering starts afresh').not.toBe(runtime);
    expect(tools.runtime(options).content?.hasPrompts).toBe(true);
  });
});
