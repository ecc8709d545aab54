import type { SyncPolicy } from './types.js';

/** One shadowed policy: `shadowingIndex` matches every name `shadowedIndex` could match, and comes first. */
export interface OverlapWarning {
  shadowingIndex: number;
  shadowedIndex: number;
  message: string;
}

/**
 * Finds policies that can never win because an earlier, broader policy matches every name they match.
 * @example detectOverlaps([{ match: 'sprints.*' }, { match: 'sprints.update' }]) // [0] shadows [1]
 * @see docs/state-sync.md
 */
export function detectOverlaps(policies: readonly SyncPolicy[]): OverlapWarning[] {
  const out: OverlapWarning[] = [];
  policies.forEach((later, j) => {
    const i = policies.findIndex((earlier, k) => k < j && covers(earlier.match, later.match));
    if (i === -1) return;
    const earlier = policies[i]!;
    out.push({
      shadowingIndex: i,
      shadowedIndex: j,
      message: `Policy [${i}] "${earlier.match}" shadows policy [${j}] "${later.match}": first match wins, so [${j}] never applies. Move [${j}] above [${i}] or narrow [${i}].`,
    });
  });
  return out;
}

/** True when every name matched by glob `b` is also matched by glob `a`. */
export function covers(a: string, b: string): boolean {
  const as = a.split('.');
  const bs = b.split('.');
  const memo = new Map<number, boolean>();
  const go = (i: number, j: number): boolean => {
    const key = i * (bs.length + 1) + j;
    const known = memo.get(key);
    if (known !== undefined) return known;
    let result: boolean;
    if (i === as.length) result = j === bs.length;
    else if (as[i] === '**') result = go(i + 1, j) || (j < bs.length && go(i, j + 1));
    else if (j === bs.length || bs[j] === '**') result = false;
    else if (as[i] === '*') result = go(i + 1, j + 1);
    else result = as[i] === bs[j] && go(i + 1, j + 1);
    memo.set(key, result);
    return result;
  };
  return go(0, 0);
}
