import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileGlob } from '../../src/state-sync/compileGlob.js';
import { MAX_GLOB_SEGMENTS, matchGlob } from '../../src/state-sync/matchGlob.js';

const word = fc.constantFrom('a', 'b', 'sprints', 'get', '');
const name = fc.array(word, { minLength: 1, maxLength: 8 }).map((s) => s.join('.'));
const pattern = fc
  .array(fc.constantFrom('a', 'b', 'sprints', 'get', '*', '**'), { minLength: 1, maxLength: 6 })
  .map((s) => s.join('.'));

describe('compileGlob', () => {
  it('answers exactly as matchGlob for every pattern shape, empty segments included', () => {
    fc.assert(
      fc.property(pattern, name, (p, n) => {
        expect(compileGlob(p).test(n), `${p} vs ${n}`).toBe(matchGlob(p, n));
      }),
      { numRuns: 5000 },
    );
  });

  it('takes the fast paths for literal, prefix.* and prefix.** and keeps their edges', () => {
    expect(compileGlob('sprints.list').test('sprints.list')).toBe(true);
    expect(compileGlob('sprints.list').test('sprints.lists')).toBe(false);
    expect(compileGlob('sprints.*').test('sprints.get')).toBe(true);
    expect(compileGlob('sprints.*').test('sprints.tasks.get')).toBe(false);
    expect(compileGlob('sprints.*').test('sprints')).toBe(false);
    expect(compileGlob('sprints.*').test('sprintsx.get')).toBe(false);
    expect(compileGlob('sprints.**').test('sprints')).toBe(true);
    expect(compileGlob('sprints.**').test('sprints.a.b.c')).toBe(true);
    expect(compileGlob('sprints.**').test('sprintsx')).toBe(false);
    expect(compileGlob('**').test('anything.at.all')).toBe(true);
  });

  it('keeps the segment bound of matchGlob on long names', () => {
    const long = Array.from({ length: MAX_GLOB_SEGMENTS + 1 }, () => 'a').join('.');
    for (const p of ['**', 'a.**', 'a.*.**', '**.a']) expect(compileGlob(p).test(long), p).toBe(matchGlob(p, long));
    expect(compileGlob('a.**').test(long)).toBe(false);
  });

  it('names the literal first segment it can be bucketed by', () => {
    expect(compileGlob('sprints.*').firstLiteral).toBe('sprints');
    expect(compileGlob('*.get').firstLiteral).toBeUndefined();
    expect(compileGlob('**').firstLiteral).toBeUndefined();
  });
});
