import { isValidGlob } from './matchGlob.js';

/** Work budget of {@link globCovers}, in search steps; past it the answer is `false`. */
export const MAX_COVER_STEPS = 1024;

/**
 * True when glob `a` matches every name glob `b` can match (`sprints.*` covers `sprints.update`,
 * `sprints.**` covers `sprints.*`, `**` covers everything, `*.**` covers `**.get`). Used by
 * {@link detectOverlaps}. Invalid globs cover nothing and are covered by nothing.
 *
 * Exact: it walks `b` as an automaton over the literals of `a` plus one symbol for every other segment
 * value, tracking the set of positions `a` reached (as `matchGlob` does), and looks for a name `b` accepts
 * and `a` rejects. The search stops after {@link MAX_COVER_STEPS} steps, which only contrived globs of
 * hundreds of segments reach; then it answers `false`, so a shadowing warning is never raised without proof.
 */
export function globCovers(a: string, b: string): boolean {
  if (!isValidGlob(a) || !isValidGlob(b)) return false;
  if (a === b || a === '**') return true;
  const as = a.split('.');
  const bs = b.split('.');
  if (!as.includes('**')) {
    // a matches names of exactly as.length segments; so must b, segment by segment.
    return !bs.includes('**') && as.length === bs.length && as.every((t, i) => t === '*' || t === bs[i]);
  }
  // Tokens of a as numbers: -2 for `**`, -1 for `*`, else the literal's id; id `other` stands for the rest.
  const ids = new Map<string, number>();
  for (const t of as) if (t !== '*' && t !== '**' && !ids.has(t)) ids.set(t, ids.size);
  const other = ids.size;
  const codes = Int32Array.from(as, (t) => (t === '**' ? DOUBLE : t === '*' ? SINGLE : ids.get(t)!));
  const seen = new Set<string>();
  // A state: position in b, positions reached in a, and whether a segment was read (names have ≥ 1).
  const queue: Array<[number, Uint8Array, boolean]> = [];
  const visit = (j: number, reached: Uint8Array, read: boolean): void => {
    const key = `${j}${read ? '+' : '-'}${pack(reached)}`;
    if (seen.has(key)) return;
    seen.add(key);
    queue.push([j, reached, read]);
  };
  visit(0, close(codes, Uint8Array.of(1, ...new Uint8Array(as.length))), false);
  let steps = 0;
  for (let head = 0; head < queue.length; head++) {
    const [j, reached, read] = queue[head]!;
    const token = bs[j];
    if (token === undefined) {
      if (read && reached[as.length] !== 1) return false; // b accepts this name and a does not
      continue;
    }
    if (token === '**') visit(j + 1, reached, read);
    // A wildcard of b may be any of a's literals or anything else; a literal of b a never mentions is "other".
    const first = token === '*' || token === '**' ? 0 : (ids.get(token) ?? other);
    const last = token === '*' || token === '**' ? other : first;
    for (let symbol = first; symbol <= last; symbol++) {
      if (++steps > MAX_COVER_STEPS) return false;
      visit(token === '**' ? j : j + 1, step(codes, reached, symbol), true);
    }
  }
  return true;
}

const DOUBLE = -2;
const SINGLE = -1;

/** Positions of `a` reached after one more segment `symbol` (the set step of `matchGlob`). */
function step(codes: Int32Array, reached: Uint8Array, symbol: number): Uint8Array {
  const next = new Uint8Array(codes.length + 1);
  for (let i = 0; i < codes.length; i++) {
    if (reached[i] !== 1) continue;
    const token = codes[i];
    if (token === DOUBLE) next[i] = 1;
    else if (token === SINGLE || token === symbol) next[i + 1] = 1;
  }
  return close(codes, next);
}

/** A `**` may match nothing: reaching it also reaches the position after it. */
function close(codes: Int32Array, reached: Uint8Array): Uint8Array {
  for (let i = 0; i < codes.length; i++) if (reached[i] === 1 && codes[i] === DOUBLE) reached[i + 1] = 1;
  return reached;
}

/** The set as a short string key, 15 positions per character. */
function pack(reached: Uint8Array): string {
  let key = '';
  for (let i = 0; i < reached.length; i += 15) {
    let word = 0;
    for (let k = 0; k < 15 && i + k < reached.length; k++) word |= (reached[i + k] ?? 0) << k;
    key += String.fromCharCode(word);
  }
  return key;
}
