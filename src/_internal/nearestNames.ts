/**
 * The names closest to `given` by edit distance (insertions, deletions, substitutions and swaps of two
 * neighbours; case ignored): those at the smallest distance found, in the order given, at most `max` of
 * them. A name counts as near when it is at
 * most a third of `given`'s length away (one edit for names under six characters, never more than three),
 * so unrelated names are never suggested.
 */
export function nearestNames(given: string, names: Iterable<string>, max = 3): string[] {
  const target = given.toLowerCase();
  const limit = Math.min(3, Math.max(1, Math.floor(target.length / 3)));
  const near: Array<{ name: string; distance: number }> = [];
  for (const name of names) {
    if (Math.abs(name.length - target.length) > limit) continue;
    const distance = editDistance(target, name.toLowerCase(), limit);
    if (distance <= limit && name !== given) near.push({ name, distance });
  }
  const best = Math.min(...near.map((n) => n.distance));
  return near
    .filter((n) => n.distance === best)
    .slice(0, max)
    .map((n) => n.name);
}

/** Optimal-string-alignment distance of `a` and `b`, or `limit + 1` as soon as it must exceed `limit`. */
function editDistance(a: string, b: string, limit: number): number {
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, before[j - 2]! + 1);
      row.push(value);
      best = Math.min(best, value);
    }
    if (best > limit) return limit + 1;
    before = previous;
    previous = row;
  }
  return previous[b.length]!;
}
