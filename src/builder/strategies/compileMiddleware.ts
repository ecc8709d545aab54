import type { Middleware } from '../../protocol/types.js';
import { compileChain } from '../compileChain.js';
import type { ChainFn, CompilableAction } from './types.js';

/**
 * MiddlewareCompiler: one closure per action, compiled once at build time, running the tool's middlewares
 * (outermost), then the action's group middlewares, then the handler. A call is one `Map.get` and one call.
 * @see docs/grouped-tools.md
 */
export function compileMiddleware<Ctx>(
  actions: readonly CompilableAction<Ctx>[],
  global: readonly Middleware<Ctx>[],
): ReadonlyMap<string, ChainFn<Ctx>> {
  const chains = new Map<string, ChainFn<Ctx>>();
  for (const action of actions)
    chains.set(action.key, compileChain([...global, ...action.middlewares], action.handler));
  return chains;
}
