import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isValidGlob, MAX_GLOB_SEGMENTS, matchGlob } from '../../src/state-sync/matchGlob.js';

/** Reference semantics as a regular expression over `name + '.'` (every segment ends with a dot). */
function reference(pattern: string, name: string): boolean {
  const body = pattern
    .split('.')
    .map((seg) => (seg === '**' ? '(?:[^.]+\\.)*' : seg === '*' ? '[^.]+\\.' : `${seg.replace(/[-]/g, '\\-')}\\.`))
    .join('');
  return new RegExp(`^${body}$`).test(`${name}.`);
}

/** Reference semantics by memoized recursion over segments (no regex backtracking on long inputs). */
function referenceBySegments(pattern: string, name: string): boolean {
  const p = pattern.split('.');
  const s = name.split('.');
  const memo = new Map<number, boolean>();
  const go = (i: number, j: number): boolean => {
    const key = i * (s.length + 1) + j;
    let known = memo.get(key);
    if (known === undefined) {
      if (i === p.length) known = j === s.length;
      else if (p[i] === '**') known = go(i + 1, j) || (j < s.length && go(i, j + 1));
      else known = j < s.length && (p[i] === '*' || p[i] === s[j]) && go(i + 1, j + 1);
      memo.set(key, known);
    }
    return known;
  };
  return go(0, 0);
}

const segment = fc.stringMatching(/^[A-Za-z0-9_-]{1,8}$/);
/** Valid MCP tool names made of dot-separated segments, at most 128 characters. */
const validName = fc
  .array(segment, { minLength: 1, maxLength: 12 })
  .map((s) => s.join('.'))
  .filter((n) => n.length <= 128);
/** Names over a tiny alphabet, so random patterns and names often agree. */
const smallName = fc.array(fc.constantFrom('a', 'b', 'c'), { minLength: 1, maxLength: 10 }).map((s) => s.join('.'));
const smallPattern = fc
  .array(fc.constantFrom('a', 'b', '*', '**'), { minLength: 1, maxLength: 8 })
  .map((s) => s.join('.'));

describe('matchGlob: the seeds’ glob tables', () => {
  const rows: Array<[pattern: string, matches: string[], doesNotMatch: string[]]> = [
    ['sprints.get', ['sprints.get'], ['sprints.list', 'sprints', 'sprints.get.one', 'x.sprints.get']],
    ['sprints.*', ['sprints.get', 'sprints.update'], ['sprints.tasks.get', 'sprints', 'tasks.get']],
    ['sprints.**', ['sprints', 'sprints.get', 'sprints.tasks.get'], ['tasks.get', 'sprintsx.get', 'x.sprints.get']],
    ['**', ['a', 'sprints.get', 'anything.at.all', 'a.b.c.d.e.f'], []],
    ['*.get', ['sprints.get', 'tasks.get'], ['sprints.tasks.get', 'get', 'sprints.list']],
    ['**.get', ['get', 'sprints.get', 'a.b.c.get'], ['sprints.update', 'sprints.get.one']],
    ['a.**.z', ['a.z', 'a.b.z', 'a.b.c.d.z'], ['a', 'z', 'a.z.b', 'b.a.z']],
  ];
  for (const [pattern, yes, no] of rows) {
    it(`${pattern} matches ${yes.join(', ') || 'nothing listed'} and not ${no.join(', ') || '—'}`, () => {
      for (const name of yes) expect(matchGlob(pattern, name), `${pattern} vs ${name}`).toBe(true);
      for (const name of no) expect(matchGlob(pattern, name), `${pattern} vs ${name}`).toBe(false);
    });
  }

  it('treats consecutive ** like one', () => {
    expect(matchGlob('a.**.**.z', 'a.z')).toBe(true);
    expect(matchGlob('a.**.**.z', 'a.b.c.z')).toBe(true);
    expect(matchGlob('**.**', 'x')).toBe(true);
  });
});

describe('matchGlob: properties', () => {
  it('a literal pattern matches only itself', () => {
    fc.assert(
      fc.property(smallName, smallName, (pattern, name) => {
        expect(matchGlob(pattern, name)).toBe(pattern === name);
        expect(matchGlob(pattern, pattern)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('** matches every valid name', () => {
    fc.assert(
      fc.property(validName, (name) => matchGlob('**', name)),
      { numRuns: 500 },
    );
  });

  it('a.** matches a and every a.x…, and nothing outside a', () => {
    fc.assert(
      fc.property(validName, (rest) => {
        expect(matchGlob('a.**', 'a')).toBe(true);
        expect(matchGlob('a.**', `a.${rest}`)).toBe(true);
        expect(matchGlob('a.**', rest)).toBe(rest === 'a' || rest.startsWith('a.'));
      }),
      { numRuns: 500 },
    );
  });

  it('* never matches across a dot', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('a', 'b', '*'), { minLength: 1, maxLength: 6 }),
        smallName,
        (segments, name) => {
          if (matchGlob(segments.join('.'), name)) expect(name.split('.')).toHaveLength(segments.length);
        },
      ),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(segment, segment, (x, y) => !matchGlob('*', `${x}.${y}`) && !matchGlob(`${x}.*`, `${x}.${y}.${x}`)),
    );
  });

  it('agrees with a reference regular expression on random patterns and names', () => {
    fc.assert(
      fc.property(smallPattern, smallName, (pattern, name) => {
        expect(matchGlob(pattern, name)).toBe(reference(pattern, name));
        expect(referenceBySegments(pattern, name)).toBe(reference(pattern, name));
      }),
      { numRuns: 3000 },
    );
  });

  it('agrees with a segment-by-segment reference on names up to the MCP limit of 128 characters', () => {
    const longName = fc.array(fc.constantFrom('a', 'b'), { minLength: 40, maxLength: 64 }).map((s) => s.join('.'));
    const longPattern = fc
      .array(fc.constantFrom('a', 'a', 'b', '*', '**'), { minLength: 1, maxLength: 40 })
      .map((s) => s.join('.'));
    fc.assert(
      fc.property(longPattern, longName, (pattern, name) => {
        expect(matchGlob(pattern, name)).toBe(referenceBySegments(pattern, name));
      }),
      { numRuns: 500 },
    );
  });
});

describe('matchGlob: bounded work', () => {
  it('rejects an adversarial pattern against a 60-segment name in milliseconds', () => {
    const pattern = Array.from({ length: 50 }, () => '**.a').join('.') + '.**.b';
    const name = Array.from({ length: 60 }, () => 'a').join('.');
    const started = performance.now();
    const result = matchGlob(pattern, name);
    const elapsed = performance.now() - started;
    expect(result).toBe(false);
    expect(elapsed).toBeLessThan(50);
  });

  it('rejects 50 consecutive ** followed by a missing segment against a 60-segment name, in milliseconds', () => {
    const pattern = `${Array.from({ length: 50 }, () => '**').join('.')}.y`;
    const name = Array.from({ length: 60 }, (_, i) => `s${i}`).join('.');
    const started = performance.now();
    expect(matchGlob(pattern, name)).toBe(false);
    expect(matchGlob(pattern, `${name}.y`)).toBe(true);
    expect(performance.now() - started).toBeLessThan(50);
  });

  it('rejects a pattern of 50 × "**.a" against a name one "a" short, in milliseconds', () => {
    const pattern = Array.from({ length: 50 }, () => '**.a').join('.') + '.**';
    const name = Array.from({ length: 49 }, () => 'a').join('.');
    const started = performance.now();
    expect(matchGlob(pattern, name)).toBe(false);
    expect(performance.now() - started).toBeLessThan(50);
    expect(matchGlob(pattern, `${name}.a`)).toBe(true);
  });

  it('still finds a legitimate match a backtracking matcher needs many steps for (a 125-character name)', () => {
    const name = [...Array.from({ length: 62 }, () => 'a'), 'b'].join('.');
    const pattern = ['**', ...Array.from({ length: 31 }, () => 'a'), 'b'].join('.');
    expect(name.length).toBe(125);
    expect(matchGlob(pattern, name)).toBe(true);
  });

  it('answers exactly up to MAX_GLOB_SEGMENTS segments and refuses longer inputs, fast', () => {
    expect(MAX_GLOB_SEGMENTS).toBe(256);
    const segments = (n: number) => Array.from({ length: n }, () => 'x').join('.');
    expect(matchGlob('**.y', `${segments(255)}.y`)).toBe(true);
    expect(matchGlob(`${segments(255)}.**`, `${segments(255)}.y`)).toBe(true);
    const started = performance.now();
    expect(matchGlob('**.y', `${segments(300)}.y`)).toBe(false);
    expect(matchGlob(`**.${segments(300)}`, segments(300))).toBe(false);
    expect(matchGlob(`${Array.from({ length: 127 }, () => '**.x').join('.')}.y`, segments(255))).toBe(false);
    expect(performance.now() - started).toBeLessThan(50);
  });
});

describe('isValidGlob', () => {
  it('accepts dot-separated segments of letters, digits, _, -, * and **', () => {
    for (const p of [
      'sprints',
      'sprints.get',
      'sprints.*',
      'sprints.**',
      '**',
      '*.get',
      '**.get',
      'a.**.z',
      'my_tool-2.list',
    ]) {
      expect(isValidGlob(p), p).toBe(true);
    }
  });

  it('rejects empty segments, partial wildcards, other characters and non-strings', () => {
    for (const p of [
      '',
      '.',
      'sprints.',
      '.sprints',
      'a..b',
      'sprints*',
      'spr*nts',
      '***',
      'a b',
      'a/b',
      'a.?',
      42,
      null,
      undefined,
      ['a'],
    ]) {
      expect(isValidGlob(p), String(p)).toBe(false);
    }
    expect(isValidGlob('a'.repeat(513))).toBe(false);
  });
});
