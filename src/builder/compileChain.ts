import { describeThrown, errorResult, normalizeResult } from '../protocol/normalizeResult.js';
import type { Middleware, ToolExtra, ToolHandler, ToolResponse } from '../protocol/types.js';

/**
 * Compiles middlewares (outermost first) and a handler into one closure, once, at build time.
 * The closure never throws: a thrown error becomes an `isError` result carrying its message.
 */
export function compileChain<Ctx>(
  middlewares: readonly Middleware<Ctx>[],
  handler: ToolHandler<Ctx, any>,
): (input: Record<string, unknown>, ctx: Ctx, extra: ToolExtra) => Promise<ToolResponse> {
  if (middlewares.length === 0) {
    return async (input, ctx, extra) => {
      try {
        return normalizeResult(await handler(input, ctx, extra));
      } catch (error) {
        return errorResult(describeThrown(error));
      }
    };
  }
  let chain = async (input: Record<string, unknown>, ctx: Ctx, extra: ToolExtra): Promise<ToolResponse> =>
    normalizeResult(await handler(input, ctx, extra));
  for (let i = middlewares.length - 1; i >= 0; i--) {
    const mw = middlewares[i]!;
    const next = chain;
    chain = async (input, ctx, extra) => normalizeResult(await mw(ctx, input, () => next(input, ctx, extra), extra));
  }
  const compiled = chain;
  return async (input, ctx, extra) => {
    try {
      return await compiled(input, ctx, extra);
    } catch (error) {
      return errorResult(describeThrown(error));
    }
  };
}
