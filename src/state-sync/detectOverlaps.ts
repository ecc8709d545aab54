import { globCovers } from './globCovers.js';
import type { OverlapWarning, SyncPolicy } from './types.js';

/**
 * Finds policies that can never apply because an earlier policy matches every name they match (first
 * match wins): `sprints.*` before `sprints.update`, `**` before anything, `sprints.**` before `sprints.*`.
 * Each shadowed policy is reported once, against the first policy that shadows it. Partial overlaps
 * (`sprints.*` before `*.get`) are legitimate ordering and are not reported. Run it at startup.
 * @example
 * detectOverlaps([{ match: 'sprints.*' }, { match: 'sprints.update' }]);
 * // [{ shadowingIndex: 0, shadowedIndex: 1, message: 'Policy [0] "sprints.*" shadows policy [1] …' }]
 * @see docs/state-sync.md
 */
export function detectOverlaps(policies: readonly SyncPolicy[]): OverlapWarning[] {
  const out: OverlapWarning[] = [];
  policies.forEach((later, j) => {
    const i = policies.findIndex((earlier, k) => k < j && globCovers(earlier.match, later.match));
    const earlier = policies[i];
    if (earlier === undefined) return;
    out.push({ shadowingIndex: i, shadowedIndex: j, message: describe(earlier.match, i, later.match, j) });
  });
  return out;
}

function describe(broad: string, i: number, narrow: string, j: number): string {
  if (broad === narrow) {
    return `Policy [${j}] repeats the match "${narrow}" of policy [${i}], so it never applies; merge it into [${i}] or remove it.`;
  }
  return `Policy [${i}] "${broad}" shadows policy [${j}] "${narrow}": first match wins, so [${j}] never applies. Move [${j}] above [${i}] or narrow [${i}].`;
}
