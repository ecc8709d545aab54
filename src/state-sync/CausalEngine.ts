import type { ResolvedPolicy } from './types.js';

/**
 * The patterns a finished call invalidates, in declaration order, or `null` for none: a failed call
 * (`isError: true`) changed nothing, and a tool whose policy declares no `invalidates` signals nothing.
 * @example resolveInvalidation({ invalidates: ['sprints.*'] }, { isError: true }); // null
 * @see docs/state-sync.md
 */
export function resolveInvalidation(policy: ResolvedPolicy | null, result: { readonly isError?: unknown }): readonly string[] | null {
  if (result.isError === true) return null;
  const patterns = policy?.invalidates;
  return patterns === undefined || patterns.length === 0 ? null : patterns;
}
