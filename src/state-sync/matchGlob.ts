/** Upper bound on matcher steps; a pattern that needs more is treated as not matching. */
export const MAX_ITERATIONS = 1024;

const SEGMENT = /^(?:\*\*?|[A-Za-z0-9_-]+)$/;

/**
 * Dot-separated glob matching: `*` matches exactly one segment, `**` zero or more.
 * Bounded: adversarial patterns return `false` after {@link MAX_ITERATIONS} steps instead of hanging.
 * @example matchGlob('sprints.*', 'sprints.get') // true
 * @see docs/state-sync.md
 */
export function matchGlob(pattern: string, name: string): boolean {
  if (pattern === name) return true;
  const p = collapse(pattern.split('.'));
  const s = name.split('.');
  let pi = 0;
  let si = 0;
  let starP = -1;
  let starS = -1;
  let steps = 0;
  while (si < s.length) {
    if (++steps > MAX_ITERATIONS) return false;
    const seg = p[pi];
    if (seg === '**') {
      starP = pi++;
      starS = si;
    } else if (seg !== undefined && (seg === '*' || seg === s[si])) {
      pi++;
      si++;
    } else if (starP !== -1) {
      pi = starP + 1;
      si = ++starS;
    } else {
      return false;
    }
  }
  while (p[pi] === '**') pi++;
  return pi === p.length;
}

/** True when `pattern` is a well-formed glob: non-empty dot-separated segments of `A-Z a-z 0-9 _ -`, `*` or `**`. */
export function isValidGlob(pattern: unknown): pattern is string {
  return typeof pattern === 'string' && pattern.length > 0 && pattern.length <= 512 && pattern.split('.').every((seg) => SEGMENT.test(seg));
}

/** Consecutive `**` segments mean the same as one. */
function collapse(segments: string[]): string[] {
  return segments.filter((seg, i) => !(seg === '**' && segments[i - 1] === '**'));
}
