import { describe, expect, it } from 'vitest';
import { fmtSpread, ratiosPerRound, spread } from '../../bench/spread.js';

describe('the peers benchmark ratios (bench/spread.ts)', () => {
  it('takes the median, minimum and maximum of the finite values', () => {
    expect(spread([3, 1, 2])).toEqual({ median: 2, min: 1, max: 3, count: 3 });
    expect(spread([4, 1, 3, 2])).toEqual({ median: 2.5, min: 1, max: 4, count: 4 });
    expect(spread([2, NaN, 1, Infinity])).toEqual({ median: 1.5, min: 1, max: 2, count: 2 });
    expect(spread([NaN]).count).toBe(0);
  });

  it('divides each round by the base of the same round', () => {
    const rounds = [
      [100, 200, 50],
      [80, 120, NaN],
    ];
    expect(ratiosPerRound(rounds, 1, 0)).toEqual([2, 1.5]);
    expect(ratiosPerRound(rounds, 2, 0)).toEqual([0.5, NaN]);
    expect(spread(ratiosPerRound(rounds, 2, 0))).toMatchObject({ median: 0.5, count: 1 });
  });

  it('formats a ratio with its range, or n/a when no round measured it', () => {
    expect(fmtSpread({ median: 1.94, min: 1.8, max: 2.05, count: 9 })).toBe('1.94× (1.80–2.05)');
    expect(fmtSpread({ median: 12.34, min: 11, max: 13, count: 2 })).toBe('12.3× (11.0–13.0)');
    expect(fmtSpread({ median: 0.5, min: 0.5, max: 0.5, count: 1 })).toBe('0.50×');
    expect(fmtSpread(spread([]))).toBe('n/a');
  });
});
