import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { globCovers } from '../../src/state-sync/globCovers.js';
import { matchGlob } from '../../src/state-sync/matchGlob.js';

/** Every name over `alphabet` with 1..maxLength segments. */
function names(alphabet: readonly string[], maxLength: number): string[] {
  const out: string[] = [];
  let layer: string[][] = [[]];
  for (let n = 1; n <= maxLength; n++) {
    layer = layer.flatMap((prefix) => alphabet.map((seg) => [...prefix, seg]));
    out.push(...layer.map((s) => s.join('.')));
  }
  return out;
}

// Literals of the generated globs plus one segment no glob mentions: it stands for every other value.
const universe = names(['a', 'b', 'z'], 7);
const glob = fc.array(fc.constantFrom('a', 'b', '*', '**'), { minLength: 1, maxLength: 3 }).map((s) => s.join('.'));

describe('globCovers', () => {
  const cases: Array<[a: string, b: string, covered: boolean]> = [
    ['sprints.*', 'sprints.update', true],
    ['sprints.*', 'sprints.*', true],
    ['sprints.**', 'sprints.*', true],
    ['sprints.**', 'sprints', true],
    ['sprints.**', 'sprints.a.**.b', true],
    ['**', 'anything.at.all', true],
    ['**', '**', true],
    ['**.get', 'sprints.*.get', true],
    ['a.**.z', 'a.b.z', true],
    ['*.*', 'sprints.get', true],
    ['*.**', '**.*', true],
    ['**.*', '*.**', true],
    ['**.a.**', '**.a.*.a.**', true],
    ['sprints.get', 'sprints.*', false],
    ['sprints.*', 'sprints.**', false],
    ['sprints.*', 'sprints', false],
    ['*', '**', false],
    ['*.get', '**.get', false],
    ['sprints.*', 'tasks.get', false],
    ['a.**.z', 'a.**', false],
    ['sprints.*', 'sprints.', false],
    ['sprints*', 'sprints.get', false],
  ];
  for (const [a, b, covered] of cases) {
    it(`${a} ${covered ? 'covers' : 'does not cover'} ${b}`, () => expect(globCovers(a, b)).toBe(covered));
  }

  it('agrees with brute force over every name of up to 7 segments (sound and complete)', () => {
    fc.assert(
      fc.property(glob, glob, (a, b) => {
        const refuted = universe.find((n) => matchGlob(b, n) && !matchGlob(a, n));
        expect(globCovers(a, b), refuted === undefined ? `${a} covers ${b}` : `${a} misses ${refuted} of ${b}`).toBe(
          refuted === undefined,
        );
      }),
      { numRuns: 2000 },
    );
  });

  it('is reflexive and transitive', () => {
    fc.assert(
      fc.property(glob, glob, glob, (a, b, c) => {
        expect(globCovers(a, a)).toBe(true);
        if (globCovers(a, b) && globCovers(b, c)) expect(globCovers(a, c)).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  it('decides long globs within its step budget, and answers false (no warning) past it', () => {
    const long = Array.from({ length: 200 }, (_, i) => (i % 2 === 0 ? '**' : 'a')).join('.');
    const started = performance.now();
    expect(globCovers('**', long)).toBe(true);
    expect(globCovers(long, `${long}.b`)).toBe(false);
    expect(globCovers(`${long}.**`, `${long}.b`)).toBe(false); // true, but unproven within MAX_COVER_STEPS
    expect(globCovers('sprints.**', `sprints.${long}`)).toBe(true);
    expect(performance.now() - started).toBeLessThan(500);
  });
});
