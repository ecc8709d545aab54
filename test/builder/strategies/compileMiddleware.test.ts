import { describe, expect, it } from 'vitest';
import { compileMiddleware } from '../../../src/builder/strategies/compileMiddleware.js';
import type { Middleware, HandlerExtra } from '../../../src/protocol/types.js';

const extra = { signal: new AbortController().signal } as HandlerExtra;

function tracer(order: string[], name: string): Middleware<unknown> {
  return async (_ctx, _args, next) => {
    order.push(`${name}>`);
    const result = await next();
    order.push(`<${name}`);
    return result;
  };
}

describe('compileMiddleware', () => {
  it('compiles one chain per action key: global → group → handler', async () => {
    const order: string[] = [];
    const chains = compileMiddleware(
      [
        {
          key: 'users.create',
          middlewares: [tracer(order, 'group1'), tracer(order, 'group2')],
          handler: () => {
            order.push('create');
            return 'created';
          },
        },
        {
          key: 'ping',
          middlewares: [],
          handler: () => {
            order.push('ping');
            return 'pong';
          },
        },
      ],
      [tracer(order, 'global1'), tracer(order, 'global2')],
    );
    expect([...chains.keys()]).toEqual(['users.create', 'ping']);
    expect(await chains.get('users.create')!({}, undefined, extra)).toEqual({
      content: [{ type: 'text', text: 'created' }],
    });
    expect(order).toEqual([
      'global1>',
      'global2>',
      'group1>',
      'group2>',
      'create',
      '<group2',
      '<group1',
      '<global2',
      '<global1',
    ]);
    order.length = 0;
    await chains.get('ping')!({}, undefined, extra);
    expect(order).toEqual(['global1>', 'global2>', 'ping', '<global2', '<global1']);
  });

  it('lets a middleware short-circuit and turns a throw into an isError result', async () => {
    const deny: Middleware<{ admin: boolean }> = (ctx, _args, next) =>
      ctx.admin ? next() : 'Only admins may do this.';
    const chains = compileMiddleware<{ admin: boolean }>(
      [
        {
          key: 'wipe',
          middlewares: [deny],
          handler: () => {
            throw new Error('disk busy; retry later');
          },
        },
      ],
      [],
    );
    const wipe = chains.get('wipe')!;
    expect(await wipe({}, { admin: false }, extra)).toEqual({
      content: [{ type: 'text', text: 'Only admins may do this.' }],
    });
    expect(await wipe({}, { admin: true }, extra)).toEqual({
      content: [{ type: 'text', text: 'disk busy; retry later' }],
      isError: true,
    });
  });

  it('gives next() a rejection for a synchronous throw below, awaits thenables and normalizes every link', async () => {
    const caught: string[] = [];
    const rescue: Middleware<unknown> = async (_ctx, _args, next) => {
      try {
        return await next();
      } catch (error) {
        caught.push((error as Error).message);
        return 'rescued';
      }
    };
    const syncThrow: Middleware<unknown> = () => {
      throw new Error('sync throw');
    };
    const sawNext: unknown[] = [];
    const inspect: Middleware<unknown> = (_ctx, _args, next) => {
      const pending = next();
      sawNext.push(pending instanceof Promise);
      return pending;
    };
    const thenable = { then: (resolve: (v: unknown) => void) => resolve('from a thenable') };
    const chains = compileMiddleware(
      [
        { key: 'below', middlewares: [rescue, syncThrow], handler: () => 'unreached' },
        {
          key: 'handler',
          middlewares: [rescue, inspect],
          handler: () => {
            throw new Error('handler throws');
          },
        },
        { key: 'thenable', middlewares: [inspect], handler: () => thenable as never },
        { key: 'object', middlewares: [inspect], handler: () => ({ n: 1 }) },
      ],
      [],
    );
    expect(await chains.get('below')!({}, undefined, extra)).toEqual({ content: [{ type: 'text', text: 'rescued' }] });
    expect(await chains.get('handler')!({}, undefined, extra)).toEqual({
      content: [{ type: 'text', text: 'rescued' }],
    });
    expect(caught).toEqual(['sync throw', 'handler throws']);
    expect(await chains.get('thenable')!({}, undefined, extra)).toEqual({
      content: [{ type: 'text', text: 'from a thenable' }],
    });
    expect(await chains.get('object')!({}, undefined, extra)).toEqual({ content: [{ type: 'text', text: '{"n":1}' }] });
    expect(sawNext, 'next() always returns a promise').toEqual([true, true, true]);
  });
});
