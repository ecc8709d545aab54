/**
 * An ISO-8601 clock over `now` (milliseconds since the epoch) that formats each millisecond once: calls
 * within the same millisecond get the same string, so a burst of invalidations pays one `toISOString`.
 * @example const stamp = isoClock(Date.now); stamp(); // '2026-01-01T00:00:00.000Z'
 */
export function isoClock(now: () => number): () => string {
  let last = Number.NaN;
  let iso = '';
  return () => {
    const ms = now();
    if (ms !== last) {
      iso = new Date(ms).toISOString();
      last = ms;
    }
    return iso;
  };
}
