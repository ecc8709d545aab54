import type { ToolResponse } from '../../protocol/types.js';

/**
 * The answer of the handler stage in an admission-only pass (a queued task's call, checked on the front before
 * its record exists): every stage admitted the call and its handler did not run. An error result, so that no
 * stage acts on it as on a success (no workflow transition, no State Sync invalidation); the observer and the
 * call's debug event leave it out ({@link isNotRun}), since no call ran. One frozen object, told apart by identity.
 */
export const notRun: ToolResponse = Object.freeze({ content: Object.freeze([]) as unknown as [], isError: true });

/** True for the answer of an admission-only pass ({@link notRun}), which no stage copies. */
export function isNotRun(result: ToolResponse): boolean {
  return result === notRun;
}
