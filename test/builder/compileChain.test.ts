import { describe, expect, it } from 'vitest';
import { compileChain } from '../../src/builder/compileChain.js';
import { WireError, JsonRpcCode } from '../../src/errors/WireError.js';
import type { Middleware, HandlerExtra } from '../../src/protocol/types.js';

const extra = {} as HandlerExtra;
const forward: Middleware<object> = (_ctx, _args, next) => next();

describe('compileChain', () => {
  it('normalizes the handler’s value once through middlewares that forward next(), and what a middleware returns instead', async () => {
    const seen: string[] = [];
    const tag =
      (name: string): Middleware<object> =>
      async (_ctx, _args, next) => {
        seen.push(name);
        return next();
      };
    const forwarded = compileChain([forward, tag('a'), forward], (input) => `echo ${String(input.id)}`);
    expect(await forwarded({ id: 7 }, {}, extra)).toEqual({ content: [{ type: 'text', text: 'echo 7' }] });
    expect(seen).toEqual(['a']);

    const replacing: Middleware<object> = async (_ctx, _args, next) => {
      await next();
      return 'replaced';
    };
    const replaced = compileChain([forward, replacing], () => 'handler');
    expect(await replaced({}, {}, extra)).toEqual({ content: [{ type: 'text', text: 'replaced' }] });

    const ignoring: Middleware<object> = () => ({ content: [{ type: 'text', text: 'short-circuit' }] });
    expect(await compileChain([forward, ignoring], () => 'never')({}, {}, extra)).toEqual({
      content: [{ type: 'text', text: 'short-circuit' }],
    });
  });

  it('turns a throw anywhere in the chain into an isError result, and lets a WireError reject', async () => {
    const throwing: Middleware<object> = () => {
      throw new Error('mw broke');
    };
    const result = await compileChain([forward, throwing], () => 'never')({}, {}, extra);
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain('mw broke');
    const wire = compileChain([forward], () => {
      throw new WireError(JsonRpcCode.InvalidParams, 'bad params');
    });
    await expect(wire({}, {}, extra)).rejects.toThrow('bad params');
  });
});
