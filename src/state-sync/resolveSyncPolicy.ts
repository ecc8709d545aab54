import { freezePolicy } from './freezePolicy.js';
import type { InlineSyncDeclaration, ResolvedPolicy } from './types.js';

/**
 * Combines what a tool declared inline with what the registry policies resolved for it
 * (`PolicyEngine.resolve(name)`), field by field:
 *
 * 1. `cacheControl` and `invalidates` declared inline (`.cached()`, `.stale()`, `.invalidates(...)`) win;
 * 2. the first matching registry policy fills each field the inline declaration leaves undefined
 *    (an empty `invalidates` counts as undefined);
 * 3. `defaults.cacheControl` applies only when neither gives a directive — for a matched policy without a
 *    directive as well as for an unmatched tool.
 *
 * So `.stale()` on `countries.list` beats a `countries.*` → `immutable` policy, while that tool still
 * picks up the policy's `invalidates` if it declares none. Returns `null` when nothing applies.
 * @example
 * resolveSyncPolicy({ cacheControl: 'no-store' }, { cacheControl: 'immutable', invalidates: ['a.*'] });
 * // { cacheControl: 'no-store', invalidates: ['a.*'] }
 * @see docs/state-sync.md
 */
export function resolveSyncPolicy(
  inline: InlineSyncDeclaration | undefined,
  registry: ResolvedPolicy | null,
): ResolvedPolicy | null {
  if (inline === undefined) return registry;
  const invalidates =
    inline.invalidates !== undefined && inline.invalidates.length > 0 ? inline.invalidates : registry?.invalidates;
  return freezePolicy(inline.cacheControl ?? registry?.cacheControl, invalidates);
}
