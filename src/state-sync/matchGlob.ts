/**
 * Longest pattern or name, in dot-separated segments, the matcher accepts; longer inputs never match.
 * Valid globs (≤ 512 characters) have at most 256 segments and MCP tool names (≤ 128 characters) at most
 * 129, so within those limits every answer is exact and the work is at most 257 × 257 steps.
 */
export const MAX_GLOB_SEGMENTS = 256;

/** Longest glob {@link isValidGlob} accepts, in characters. */
export const MAX_GLOB_LENGTH = 512;

const SEGMENT = /^(?:\*\*?|[A-Za-z0-9_-]+)$/;

/**
 * Dot-separated glob matching for tool names: `*` matches exactly one segment, `**` zero or more.
 * It walks the name once, keeping the set of pattern positions reached so far (no backtracking, no
 * recursion), so its cost is at most (pattern segments + 1) × (name segments + 1) steps: adversarial
 * patterns such as `**.a.**.a.**…` return `false` in microseconds instead of hanging.
 * @example
 * matchGlob('sprints.*', 'sprints.get');       // true
 * matchGlob('sprints.*', 'sprints.tasks.get'); // false
 * matchGlob('sprints.**', 'sprints');          // true: `**` may match nothing
 * @see docs/state-sync.md
 */
export function matchGlob(pattern: string, name: string): boolean {
  return pattern === name || matchSegments(pattern.split('.'), name);
}

/** {@link matchGlob} over a pattern already split into its segments (what `compileGlob` keeps). */
export function matchSegments(p: readonly string[], name: string): boolean {
  const s = name.split('.');
  if (p.length > MAX_GLOB_SEGMENTS || s.length > MAX_GLOB_SEGMENTS) return false;
  // reached[i] = 1 when p[0..i) matches the name segments read so far.
  let reached = new Uint8Array(p.length + 1);
  let next = new Uint8Array(p.length + 1);
  reached[0] = 1;
  skipDoubleStars(p, reached);
  for (const segment of s) {
    next.fill(0);
    let any = false;
    for (let i = 0; i < p.length; i++) {
      if (reached[i] === 0) continue;
      const token = p[i];
      if (token === '**') next[i] = 1;
      else if (token === '*' || token === segment) next[i + 1] = 1;
      else continue;
      any = true;
    }
    if (!any) return false;
    skipDoubleStars(p, next);
    [reached, next] = [next, reached];
  }
  return reached[p.length] === 1;
}

/**
 * True when `pattern` is a glob State Sync accepts: 1–512 characters of non-empty dot-separated segments,
 * each either letters, digits, `_` and `-`, or a whole-segment `*` or `**` (`sprints*` is not allowed).
 * @example isValidGlob('sprints.**'); // true
 */
export function isValidGlob(pattern: unknown): pattern is string {
  return (
    typeof pattern === 'string' &&
    pattern.length > 0 &&
    pattern.length <= MAX_GLOB_LENGTH &&
    pattern.split('.').every((seg) => SEGMENT.test(seg))
  );
}

/** A `**` may match nothing: reaching it also reaches the position after it. */
function skipDoubleStars(p: readonly string[], reached: Uint8Array): void {
  for (let i = 0; i < p.length; i++) if (reached[i] === 1 && p[i] === '**') reached[i + 1] = 1;
}
