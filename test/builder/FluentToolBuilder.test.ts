import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DefinitionError, FrozenBuilderError, initFusion, type HandlerExtra } from '../../src/index.js';
import { detachedExtra } from '../../src/advanced/index.js';

const f = initFusion<{ user: string }>();
const extra: HandlerExtra = detachedExtra({ requestId: 1 });

describe('fluent tools', () => {
  it('derives a strict JSON Schema once from the with* fields', () => {
    const tool = f
      .action('tasks.update')
      .describe('Update a task')
      .withString('id', 'Task ID')
      .withOptionalString('title', 'New title')
      .withNumber('points')
      .withOptionalBoolean('done')
      .withEnum('priority', ['low', 'high'])
      .withArray('labels', 'string', 'Labels')
      .handle(() => 'ok');
    expect(tool.inputSchema).toEqual({
      type: 'object',
      properties: {
        id: { type: 'string', description: 'Task ID' },
        title: { type: 'string', description: 'New title' },
        points: { type: 'number' },
        done: { type: 'boolean' },
        priority: { type: 'string', enum: ['low', 'high'] },
        labels: { type: 'array', items: { type: 'string' }, description: 'Labels' },
      },
      required: ['id', 'points', 'priority', 'labels'],
      additionalProperties: false,
    });
    expect(Object.isFrozen(tool)).toBe(true);
    expect(Object.isFrozen(tool.inputSchema)).toBe(true);
  });

  it('rejects unknown fields and lists every bad field', () => {
    const tool = f
      .action('sprints.create')
      .withString('name')
      .withNumber('weeks')
      .handle(() => 'ok');
    const outcome = tool.validate({ name: 3, extra: true });
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.issues).toEqual([
      { path: 'name', message: 'expected string, received number' },
      { path: 'weeks', message: 'expected number, received undefined' },
      { path: 'extra', message: 'unknown field' },
    ]);
  });

  it('makes a zod .input() strict and merges with* fields into it', () => {
    const tool = f
      .query('users.find')
      .input(z.object({ email: z.string().email() }))
      .withOptionalNumber('limit')
      .handle((input) => input.email);
    expect(tool.inputSchema.additionalProperties).toBe(false);
    expect(Object.keys(tool.inputSchema.properties ?? {})).toEqual(['email', 'limit']);
    expect(tool.validate({ email: 'a@b.co', limit: 2 }).ok).toBe(true);
    expect(tool.validate({ email: 'a@b.co', other: 1 }).ok).toBe(false);
  });

  it('lists a raw JSON Schema unchanged and validates as written', () => {
    const schema = {
      type: 'object' as const,
      $defs: { id: { type: 'string', minLength: 2 } },
      properties: { id: { $ref: '#/$defs/id' }, note: { type: 'string' } },
      required: ['id'],
      additionalProperties: false,
    };
    const tool = f
      .query('items.get')
      .input(schema)
      .handle(() => 'ok');
    expect(tool.inputSchema).toEqual(schema);
    expect(tool.validate({ id: 'ab' }).ok).toBe(true);
    expect(tool.validate({ id: 'a' }).ok).toBe(false);
    expect(tool.validate({ id: 'ab', x: 1 }).ok).toBe(false);
  });

  it('sets kind-based annotations that .annotations() can override', () => {
    expect(f.query('a.q').handle(() => '').annotations).toEqual({ readOnlyHint: true });
    expect(f.mutation('a.m').handle(() => '').annotations).toEqual({ readOnlyHint: false, destructiveHint: true });
    expect(f.action('a.a').handle(() => '').annotations).toEqual({ readOnlyHint: false, destructiveHint: false });
    expect(
      f
        .mutation('a.m2')
        .annotations({ destructiveHint: false })
        .handle(() => '').annotations.destructiveHint,
    ).toBe(false);
  });

  it('shapes handler returns: string as text, object as JSON, results as is, throws as isError', async () => {
    const ctx = { user: 'ana' };
    const text = f.query('r.text').handle(() => 'hello');
    const json = f.query('r.json').handle((_i, c) => ({ user: c.user }));
    const raw = f.query('r.raw').handle(() => ({ content: [{ type: 'text', text: 'x' }], isError: true }));
    const thrown = f.query('r.throw').handle(() => {
      throw new Error('database offline; retry in a minute');
    });
    expect(await text.run({}, ctx, extra)).toEqual({ content: [{ type: 'text', text: 'hello' }] });
    expect(await json.run({}, ctx, extra)).toEqual({ content: [{ type: 'text', text: '{"user":"ana"}' }] });
    expect(await raw.run({}, ctx, extra)).toEqual({ content: [{ type: 'text', text: 'x' }], isError: true });
    expect(await thrown.run({}, ctx, extra)).toEqual({
      content: [{ type: 'text', text: 'database offline; retry in a minute' }],
      isError: true,
    });
  });

  it('runs middlewares outermost first, around the handler', async () => {
    const order: string[] = [];
    const g = initFusion<object>({
      middleware: [
        async (_c, _a, next) => {
          order.push('global');
          return next();
        },
      ],
    });
    const tool = g
      .query('m.q')
      .use(async (_c, _a, next) => {
        order.push('first');
        const r = await next();
        order.push('after');
        return r;
      })
      .use(async (_c, args, next) => (args.block === true ? 'blocked' : next()))
      .input(z.object({ block: z.boolean() }))
      .handle(() => {
        order.push('handler');
        return 'done';
      });
    expect(await tool.run({ block: false }, {}, extra)).toEqual({ content: [{ type: 'text', text: 'done' }] });
    expect(order).toEqual(['global', 'first', 'handler', 'after']);
    expect(await tool.run({ block: true }, {}, extra)).toEqual({ content: [{ type: 'text', text: 'blocked' }] });
  });

  it('keeps unchained calls, returns the same builder when chained, and freezes on .handle()', () => {
    const base = f.query('x.list');
    base.describe('one');
    base.withString('q');
    expect(base.tags('a')).toBe(base);
    const tool = base.handle(() => '');
    expect(tool.description).toBe('one');
    expect(tool.inputSchema.required).toEqual(['q']);
    expect(tool.tags).toEqual(['a']);
    expect(() => base.describe('two')).toThrow(FrozenBuilderError);
    expect(() => base.describe('two')).toThrowErrorMatchingInlineSnapshot(
      `[FrozenBuilderError: Tool "x.list" is already built (.handle() was called); cannot change it. Builders are frozen once built: start a new builder with f.query("x.list") instead.]`,
    );
    expect(() => base.handle(() => '')).toThrow(FrozenBuilderError);
  });

  it('checks names against the MCP rule at build time', () => {
    expect(() => f.query('sprints list').handle(() => '')).toThrowErrorMatchingInlineSnapshot(
      `[DefinitionError: Tool name "sprints list" is invalid: MCP tool names are 1–128 characters of A-Z, a-z, 0-9, "_", "-" and "."; rename it (for example "sprints_list").]`,
    );
    expect(() => f.query('x'.repeat(129)).handle(() => '')).toThrow(DefinitionError);
    expect(() => f.query('').handle(() => '')).toThrow(DefinitionError);
    expect(f.query('a-b_c.D9').handle(() => '').name).toBe('a-b_c.D9');
  });

  it('records State Sync, FSM and timeout declarations on the built tool', () => {
    const tool = f
      .mutation('cart.pay')
      .invalidates('cart.*', 'orders.*')
      .bindState('payment', 'PAY')
      .timeout(500)
      .handle(() => '');
    expect(tool.sync).toEqual({ invalidates: ['cart.*', 'orders.*'] });
    expect(tool.fsm).toEqual({ states: ['payment'], event: 'PAY' });
    expect(tool.timeoutMs).toBe(500);
    expect(
      f
        .query('c.list')
        .cached()
        .handle(() => '').sync,
    ).toEqual({ cacheControl: 'immutable' });
    expect(
      f
        .query('s.list')
        .stale()
        .handle(() => '').sync,
    ).toEqual({ cacheControl: 'no-store' });
    expect(() => f.query('t.x').timeout(0)).toThrow(/positive number of milliseconds/);
  });
});
