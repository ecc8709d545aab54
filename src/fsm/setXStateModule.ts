import { provideOptional } from '../_internal/loadOptional.js';

/**
 * Hands mcp-fusion an XState v5 module instead of letting it `import('xstate')` itself (bundlers that
 * drop dynamic imports, tests). `undefined` makes `auto` gates use the built-in engine. Call it before
 * the first transition: a gate keeps the engine it resolved first.
 */
export function setXStateModule(module: object | undefined): void {
  provideOptional('xstate', module);
}
