import { loadOptional } from '../_internal/loadOptional.js';

/**
 * Preloads `xstate` at boot so the first transition pays no import. Resolves `true` when XState is
 * available, `false` when the built-in engine will be used.
 */
export async function initFsmEngine(): Promise<boolean> {
  return (await loadOptional('xstate')) !== undefined;
}
