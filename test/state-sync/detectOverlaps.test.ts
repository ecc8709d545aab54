import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectOverlaps } from '../../src/state-sync/detectOverlaps.js';
import { globCovers } from '../../src/state-sync/globCovers.js';

describe('detectOverlaps', () => {
  it('flags sprints.* before sprints.update, with the seeds’ fields and a message that gives the fix', () => {
    expect(
      detectOverlaps([
        { match: 'sprints.*', cacheControl: 'no-store' },
        { match: 'sprints.update', invalidates: ['sprints.*'] },
      ]),
    ).toEqual([
      {
        shadowingIndex: 0,
        shadowedIndex: 1,
        message:
          'Policy [0] "sprints.*" shadows policy [1] "sprints.update": first match wins, so [1] never applies. Move [1] above [0] or narrow [0].',
      },
    ]);
  });

  it('flags ** before anything', () => {
    const warnings = detectOverlaps([
      { match: 'a.b' },
      { match: '**' },
      { match: 'sprints.get' },
      { match: 'x.**.y' },
      { match: '*' },
    ]);
    expect(warnings.map((w) => [w.shadowingIndex, w.shadowedIndex])).toEqual([
      [1, 2],
      [1, 3],
      [1, 4],
    ]);
  });

  it('flags sprints.** before sprints.*', () => {
    expect(
      detectOverlaps([{ match: 'sprints.**' }, { match: 'sprints.*' }]).map((w) => [w.shadowingIndex, w.shadowedIndex]),
    ).toEqual([[0, 1]]);
  });

  it('flags an exact duplicate with its own advice', () => {
    expect(detectOverlaps([{ match: 'tasks.update' }, { match: 'tasks.update' }])).toEqual([
      {
        shadowingIndex: 0,
        shadowedIndex: 1,
        message:
          'Policy [1] repeats the match "tasks.update" of policy [0], so it never applies; merge it into [0] or remove it.',
      },
    ]);
  });

  it('sees through equivalent spellings of wildcard runs', () => {
    expect(
      detectOverlaps([{ match: 'a.*.**' }, { match: 'a.**.*' }]).map((w) => [w.shadowingIndex, w.shadowedIndex]),
    ).toEqual([[0, 1]]);
    expect(detectOverlaps([{ match: '*.**' }, { match: '**.get' }])).toHaveLength(1);
    expect(detectOverlaps([{ match: '*.*.**' }, { match: '**.get' }])).toEqual([]); // "get" alone escapes [0]
  });

  it('reports the first shadowing policy only, once per shadowed policy', () => {
    const warnings = detectOverlaps([{ match: 'sprints.**' }, { match: 'sprints.*' }, { match: 'sprints.get' }]);
    expect(warnings.map((w) => [w.shadowingIndex, w.shadowedIndex])).toEqual([
      [0, 1],
      [0, 2],
    ]);
  });

  it('has no false positives for narrow-before-broad or disjoint policies', () => {
    expect(
      detectOverlaps([
        { match: 'sprints.get', cacheControl: 'immutable' },
        { match: 'sprints.*', cacheControl: 'no-store' },
      ]),
    ).toEqual([]);
    expect(detectOverlaps([{ match: 'sprints.*' }, { match: 'sprints.**' }])).toEqual([]);
    expect(detectOverlaps([{ match: 'sprints.*' }, { match: 'tasks.*' }, { match: 'countries.**' }])).toEqual([]);
    expect(detectOverlaps([{ match: '*.get' }, { match: 'sprints.**' }])).toEqual([]);
    expect(detectOverlaps([])).toEqual([]);
  });
});

describe('detectOverlaps: bucketed by first segment', () => {
  it('reports what checking every earlier policy with globCovers would', () => {
    const glob = fc.array(fc.constantFrom('a', 'b', '*', '**'), { minLength: 1, maxLength: 4 }).map((s) => s.join('.'));
    fc.assert(
      fc.property(fc.array(glob, { minLength: 1, maxLength: 10 }), (globs) => {
        const policies = globs.map((match) => ({ match, cacheControl: 'no-store' as const }));
        const brute = policies.flatMap((later, j) => {
          const i = policies.findIndex((earlier, k) => k < j && globCovers(earlier.match, later.match));
          return i === -1 ? [] : [[i, j]];
        });
        expect(detectOverlaps(policies).map((o) => [o.shadowingIndex, o.shadowedIndex])).toEqual(brute);
      }),
      { numRuns: 2000 },
    );
  });
});
