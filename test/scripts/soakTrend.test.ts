import { describe, expect, it } from 'vitest';
import { judge, quantile, slope } from '../../scripts/soak/trend.js';

const tolerance = { absolute: 2, relative: 0.05 };
const series = (f: (t: number) => number) => Array.from({ length: 60 }, (_, i) => [i * 5, f(i * 5)] as const);

describe('the soak verdict', () => {
  it('passes a metric that climbs while warming up, then wobbles around a level', () => {
    const trend = judge(
      series((t) => (t < 120 ? t / 2 : 60 + ((t / 5) % 3) - 1)),
      tolerance,
    );
    expect(trend.bounded).toBe(true);
    expect(trend.median).toBe(60);
  });

  it('fails a metric that keeps growing in the second half, even slowly', () => {
    const trend = judge(
      series((t) => 100 + t / 20),
      tolerance,
    );
    expect(trend.bounded).toBe(false);
    expect(trend.slopePerMin).toBeCloseTo(3);
    expect(trend.growth).toBeCloseTo((3 / 60) * 145);
  });

  it('is not tilted by a few spikes (a busy machine), as a least-squares line would be', () => {
    const spiky = series((t) => (t === 270 || t === 280 ? 600 : 100 + ((t / 5) % 2)));
    const trend = judge(spiky, tolerance);
    expect(trend.bounded).toBe(true);
    expect(Math.abs(trend.growth)).toBeLessThan(1);
  });

  it('passes a falling metric, and measures slopes and quantiles exactly', () => {
    expect(
      judge(
        series((t) => 500 - t),
        tolerance,
      ).bounded,
    ).toBe(true);
    expect(
      slope([
        [0, 1],
        [1, 3],
        [2, 5],
      ]),
    ).toBe(2);
    expect(slope([[3, 7]])).toBe(0);
    expect(
      slope([
        [0, 0],
        [1, 1],
        [2, 2],
        [3, 3],
        [4, 100],
      ]),
    ).toBe(1);
    expect(quantile([5, 1, 4, 2, 3], 0.99)).toBe(5);
    expect(
      quantile(
        Array.from({ length: 100 }, (_, i) => i + 1),
        0.99,
      ),
    ).toBe(99);
    expect(quantile([], 0.5)).toBe(0);
  });
});
