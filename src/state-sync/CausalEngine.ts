import type { ResolvedPolicy } from './types.js';

/**
 * The patterns a finished call invalidates: none when the call failed (`isError: true`) — a failed
 * mutation changed nothing — or when its policy declares none.
 */
export function resolveInvalidation(policy: ResolvedPolicy | null, result: { isError?: boolean }): readonly string[] | null {
  if (result.isError === true || policy?.invalidates === undefined || policy.invalidates.length === 0) return null;
  return policy.invalidates;
}
