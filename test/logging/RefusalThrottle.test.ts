import { describe, expect, it } from 'vitest';
import { RefusalThrottle } from '../../src/logging/RefusalThrottle.js';

describe('RefusalThrottle', () => {
  it('admits `limit` records per key and window, then reports the suppressed count with the next window’s first', () => {
    let now = 0;
    const throttle = new RefusalThrottle({ limit: 3, windowMs: 60_000, now: () => now });
    expect(Array.from({ length: 10 }, () => throttle.admit('rate_limited:a'))).toEqual([
      0,
      0,
      0,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    expect(throttle.admit('rate_limited:b')).toBe(0);
    now = 59_999;
    expect(throttle.admit('rate_limited:a')).toBeUndefined();
    now = 60_000;
    expect(throttle.admit('rate_limited:a')).toBe(8);
    expect(throttle.admit('rate_limited:a')).toBe(0);
  });

  it('forgets the oldest key past maxKeys, so memory stays bounded', () => {
    const throttle = new RefusalThrottle({ limit: 1, maxKeys: 2, now: () => 0 });
    throttle.admit('a');
    throttle.admit('b');
    expect(throttle.admit('a')).toBeUndefined();
    throttle.admit('c');
    // "a" was the oldest key and is forgotten: it starts a new window.
    expect(throttle.admit('a')).toBe(0);
  });
});
