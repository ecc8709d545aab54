import { describeThrown, errorResult, normalizeResult } from '../protocol/normalizeResult.js';
import { WireError } from '../errors/WireError.js';
import type { Middleware, HandlerExtra, ToolHandler, ToolResponse } from '../protocol/types.js';
import { markThrown } from '../protocol/thrownBy.js';

/**
 * Compiles middlewares (outermost first) and a handler into one closure, once, at build time.
 * A thrown error becomes an `isError` result carrying its message (and, out of the wire's sight, the error
 * itself, for the log), except a {@link WireError}: that one rejects, so that the client gets it as a
 * JSON-RPC error (a task fails with it).
 */
export function compileChain<Ctx>(
  middlewares: readonly Middleware<Ctx>[],
  handler: ToolHandler<Ctx, any>,
): (input: Record<string, unknown>, ctx: Ctx, extra: HandlerExtra) => Promise<ToolResponse> {
  if (middlewares.length === 0) {
    return async (input, ctx, extra) => {
      try {
        return normalizeResult(await handler(input, ctx, extra));
      } catch (error) {
        if (error instanceof WireError) throw error;
        return markThrown(errorResult(describeThrown(error)), error, 'handler');
      }
    };
  }
  // Each link returns a promise of a normalized result (a synchronous throw becomes a rejection, as from an
  // async function) without an async frame of its own.
  let chain = (input: Record<string, unknown>, ctx: Ctx, extra: HandlerExtra): Promise<ToolResponse> => {
    try {
      return normalized(handler(input, ctx, extra));
    } catch (error) {
      return Promise.reject(error);
    }
  };
  for (let i = middlewares.length - 1; i >= 0; i--) {
    const mw = middlewares[i]!;
    const next = chain;
    chain = (input, ctx, extra) => {
      // A middleware that returns what `next()` gave it hands back a normalized promise: no reaction is added.
      let forwarded: Promise<ToolResponse> | undefined;
      try {
        const value = mw(ctx, input, () => (forwarded = next(input, ctx, extra)), extra);
        return forwarded !== undefined && value === forwarded ? forwarded : normalized(value);
      } catch (error) {
        return Promise.reject(error);
      }
    };
  }
  const compiled = chain;
  return async (input, ctx, extra) => {
    try {
      return await compiled(input, ctx, extra);
    } catch (error) {
      if (error instanceof WireError) throw error;
      return markThrown(errorResult(describeThrown(error)), error, 'handler');
    }
  };
}

/** A handler's or middleware's return value, awaited if it is a promise, as a normalized result. */
function normalized(value: unknown): Promise<ToolResponse> {
  if (value instanceof Promise) return value.then(normalizeResult);
  if (typeof (value as PromiseLike<unknown> | null | undefined)?.then === 'function')
    return Promise.resolve(value).then(normalizeResult);
  return Promise.resolve(normalizeResult(value));
}
