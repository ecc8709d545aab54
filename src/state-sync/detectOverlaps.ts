import { compileGlob } from './compileGlob.js';
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
  // A glob whose first segment is a literal can only cover globs with the same literal first segment, so
  // each policy is checked against its own bucket and the wildcard-headed policies before it, not all.
  const byHead = new Map<string, number[]>();
  const anyHead: number[] = [];
  policies.forEach((later, j) => {
    const head = compileGlob(later.match).firstLiteral;
    const bucket = head === undefined ? undefined : byHead.get(head);
    let i = -1;
    for (const k of mergeOrdered(bucket ?? [], anyHead)) {
      if (globCovers(policies[k]!.match, later.match)) {
        i = k;
        break;
      }
    }
    if (head === undefined) anyHead.push(j);
    else if (bucket === undefined) byHead.set(head, [j]);
    else bucket.push(j);
    const earlier = policies[i];
    if (earlier === undefined) return;
    out.push({ shadowingIndex: i, shadowedIndex: j, message: describe(earlier.match, i, later.match, j) });
  });
  return out;
}

/** The indexes of two ascending lists, in ascending order. */
function* mergeOrdered(a: readonly number[], b: readonly number[]): Generator<number> {
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && a[i]! < b[j]!)) yield a[i++]!;
    else yield b[j++]!;
  }
}

function describe(broad: string, i: number, narrow: string, j: number): string {
  if (broad === narrow) {
    return `Policy [${j}] repeats the match "${narrow}" of policy [${i}], so it never applies; merge it into [${i}] or remove it.`;
  }
  return `Policy [${i}] "${broad}" shadows policy [${j}] "${narrow}": first match wins, so [${j}] never applies. Move [${j}] above [${i}] or narrow [${i}].`;
}
