import type { ToolResponse } from './types.js';

const THROWN = Symbol('mcp-fusion.thrown');

/** What failed behind an `isError` result made from a thrown error: the handler chain, the context factory or a store. */
export interface Thrown {
  readonly error: unknown;
  readonly source: 'handler' | 'contextFactory' | 'store';
}

/**
 * Remembers on `result` (the agent's `isError` text) the error it was made from, out of the wire's sight
 * (a non-enumerable symbol), so that the call path can log the error with its stack exactly once.
 */
export function markThrown(result: ToolResponse, error: unknown, source: Thrown['source']): ToolResponse {
  Object.defineProperty(result, THROWN, { value: { error, source } satisfies Thrown, configurable: true });
  return result;
}

/** The error `result` was made from, if {@link markThrown} marked it. */
export function thrownBy(result: ToolResponse): Thrown | undefined {
  return (result as { [THROWN]?: Thrown })[THROWN];
}
