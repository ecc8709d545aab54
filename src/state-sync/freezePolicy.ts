import type { CacheDirective, ResolvedPolicy } from './types.js';

/**
 * A frozen {@link ResolvedPolicy} holding only the fields that say something (a directive, a non-empty
 * `invalidates` copied and frozen), or `null` when neither does.
 */
export function freezePolicy(
  cacheControl: CacheDirective | undefined,
  invalidates: readonly string[] | undefined,
): ResolvedPolicy | null {
  const hasInvalidates = invalidates !== undefined && invalidates.length > 0;
  if (cacheControl === undefined && !hasInvalidates) return null;
  const out: { cacheControl?: CacheDirective; invalidates?: readonly string[] } = {};
  if (cacheControl !== undefined) out.cacheControl = cacheControl;
  if (hasInvalidates) out.invalidates = Object.freeze([...invalidates]);
  return Object.freeze(out);
}
