import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DefinitionError } from '../../src/errors/FusionError.js';
import { matchGlob } from '../../src/state-sync/matchGlob.js';
import { MAX_CACHE_ENTRIES, PolicyEngine } from '../../src/state-sync/PolicyEngine.js';
import type { SyncPolicy } from '../../src/state-sync/types.js';

const seedPolicies: SyncPolicy[] = [
  { match: 'sprints.update', invalidates: ['sprints.*'] },
  { match: 'sprints.create', invalidates: ['sprints.*'] },
  { match: 'sprints.delete', invalidates: ['sprints.*'] },
  { match: 'tasks.update', invalidates: ['tasks.*', 'sprints.*'] },
  { match: 'countries.*', cacheControl: 'immutable' },
];

describe('PolicyEngine', () => {
  it('resolves the seeds’ configuration', () => {
    const engine = new PolicyEngine(seedPolicies, { cacheControl: 'no-store' });
    expect(engine.resolve('countries.list')).toEqual({ cacheControl: 'immutable' });
    expect(engine.resolve('tasks.update')).toEqual({ cacheControl: 'no-store', invalidates: ['tasks.*', 'sprints.*'] });
    expect(engine.resolve('sprints.create')).toEqual({ cacheControl: 'no-store', invalidates: ['sprints.*'] });
    expect(engine.resolve('sprints.list')).toEqual({ cacheControl: 'no-store' });
  });

  it('is first-match-wins: the earlier of two matching policies decides', () => {
    const engine = new PolicyEngine([
      { match: 'sprints.get', cacheControl: 'immutable' },
      { match: 'sprints.*', cacheControl: 'no-store' },
    ]);
    expect(engine.resolve('sprints.get')).toEqual({ cacheControl: 'immutable' });
    expect(engine.resolve('sprints.list')).toEqual({ cacheControl: 'no-store' });
    const reversed = new PolicyEngine([
      { match: 'sprints.*', cacheControl: 'no-store' },
      { match: 'sprints.get', cacheControl: 'immutable' },
    ]);
    expect(reversed.resolve('sprints.get')).toEqual({ cacheControl: 'no-store' });
  });

  it('does not merge later policies into the first match', () => {
    const engine = new PolicyEngine([
      { match: 'sprints.update', invalidates: ['sprints.*'] },
      { match: 'sprints.*', cacheControl: 'no-store' },
    ]);
    expect(engine.resolve('sprints.update')).toEqual({ invalidates: ['sprints.*'] });
  });

  it('gives unmatched tools the default directive, and matched policies without a directive too', () => {
    const engine = new PolicyEngine(
      [
        { match: 'sprints.update', invalidates: ['sprints.*'] },
        { match: 'countries.*', cacheControl: 'no-store' },
      ],
      { cacheControl: 'immutable' },
    );
    expect(engine.resolve('reports.list')).toEqual({ cacheControl: 'immutable' });
    expect(engine.resolve('sprints.update')).toEqual({ cacheControl: 'immutable', invalidates: ['sprints.*'] });
    expect(engine.resolve('countries.list')).toEqual({ cacheControl: 'no-store' });
  });

  it('gives a matched policy with no fields the default directive (it shields nothing)', () => {
    expect(new PolicyEngine([{ match: 'a.*' }], { cacheControl: 'no-store' }).resolve('a.b')).toEqual({
      cacheControl: 'no-store',
    });
    expect(new PolicyEngine([{ match: 'a.*' }]).resolve('a.b')).toBeNull();
  });

  it('returns null for unmatched tools when there are no defaults (or defaults without a directive)', () => {
    expect(new PolicyEngine([{ match: 'countries.*', cacheControl: 'immutable' }]).resolve('sprints.list')).toBeNull();
    expect(new PolicyEngine([], {}).resolve('sprints.list')).toBeNull();
    expect(new PolicyEngine([]).resolve('anything')).toBeNull();
  });

  it('returns frozen policies, the same object every time, and never aliases the caller’s arrays', () => {
    const invalidates = ['sprints.*'];
    const engine = new PolicyEngine([{ match: 'sprints.*', cacheControl: 'no-store', invalidates }], {
      cacheControl: 'immutable',
    });
    const first = engine.resolve('sprints.create')!;
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(first.invalidates)).toBe(true);
    expect(Object.isFrozen(engine.resolve('other'))).toBe(true);
    expect(engine.resolve('sprints.create')).toBe(first);
    expect(engine.resolve('sprints.list')).toBe(first);
    invalidates.push('tasks.*');
    expect(first.invalidates).toEqual(['sprints.*']);
    expect(() => (first.invalidates as string[]).push('x')).toThrow(TypeError);
  });

  it('drops an empty invalidates list', () => {
    expect(new PolicyEngine([{ match: 'a.*', cacheControl: 'no-store', invalidates: [] }]).resolve('a.b')).toEqual({
      cacheControl: 'no-store',
    });
  });

  it('validates at construction', () => {
    expect(() => new PolicyEngine([{ match: 'sprints.', cacheControl: 'no-store' }])).toThrow(DefinitionError);
    expect(() => new PolicyEngine('sprints.*' as never)).toThrow(/"policies" must be an array/);
    expect(() => new PolicyEngine([], { cacheControl: 'max-age' as never })).toThrow(
      /defaults.cacheControl "max-age" is unknown/,
    );
  });

  it('keeps its cache within MAX_CACHE_ENTRIES over 10,000 distinct names, answering right throughout', () => {
    expect(MAX_CACHE_ENTRIES).toBe(2048);
    const engine = new PolicyEngine(
      [
        { match: 'sprints.get', cacheControl: 'immutable' },
        { match: 'sprints.*', invalidates: ['sprints.*'] },
        { match: '*.list', cacheControl: 'no-store' },
      ],
      { cacheControl: 'immutable' },
    );
    const expected = (name: string) =>
      name === 'sprints.get'
        ? { cacheControl: 'immutable' }
        : name.startsWith('sprints.') && name.split('.').length === 2
          ? { cacheControl: 'immutable', invalidates: ['sprints.*'] }
          : name.endsWith('.list') && name.split('.').length === 2
            ? { cacheControl: 'no-store' }
            : { cacheControl: 'immutable' };
    let largest = 0;
    for (let i = 0; i < 10_000; i++) {
      const name = ['sprints.get', `sprints.op${i}`, `d${i}.list`, `d${i}.x.list`][i % 4]!;
      expect(engine.resolve(name)).toEqual(expected(name));
      largest = Math.max(largest, engine.cacheSize);
      expect(engine.cacheSize).toBeLessThanOrEqual(MAX_CACHE_ENTRIES);
    }
    expect(largest).toBe(MAX_CACHE_ENTRIES);
    // Names evicted long ago resolve the same way again.
    for (const name of ['sprints.op1', 'd2.list', 'd3.x.list', 'sprints.get'])
      expect(engine.resolve(name)).toEqual(expected(name));
  });

  it('agrees with a linear first-match scan on random policies and names', () => {
    const glob = fc.array(fc.constantFrom('a', 'b', '*', '**'), { minLength: 1, maxLength: 4 }).map((s) => s.join('.'));
    const policy = fc.record({
      match: glob,
      cacheControl: fc.constantFrom('no-store', 'immutable'),
    }) as fc.Arbitrary<SyncPolicy>;
    const name = fc.array(fc.constantFrom('a', 'b'), { minLength: 1, maxLength: 5 }).map((s) => s.join('.'));
    fc.assert(
      fc.property(fc.array(policy, { maxLength: 6 }), fc.array(name, { maxLength: 20 }), (policies, names) => {
        const engine = new PolicyEngine(policies);
        for (const n of names) {
          const first = policies.find((p) => matchGlob(p.match, n));
          expect(engine.resolve(n)?.cacheControl).toBe(first?.cacheControl);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('PolicyEngine: indexed first-match', () => {
  it('resolves as a plain first-match scan would, whatever the mix of literal and wildcard heads', () => {
    const seg = fc.constantFrom('a', 'b', 'c', '*', '**');
    const glob = fc.array(seg, { minLength: 1, maxLength: 4 }).map((s) => s.join('.'));
    const name = fc.array(fc.constantFrom('a', 'b', 'c'), { minLength: 1, maxLength: 5 }).map((s) => s.join('.'));
    fc.assert(
      fc.property(
        fc.array(glob, { minLength: 1, maxLength: 8 }),
        fc.array(name, { minLength: 1, maxLength: 10 }),
        (globs, names) => {
          const policies = globs.map((match, i) => ({ match, invalidates: [`p${i}.*`] }));
          const engine = new PolicyEngine(policies);
          for (const n of names) {
            const first = policies.findIndex((p) => matchGlob(p.match, n));
            expect(engine.resolve(n)?.invalidates?.[0] ?? null, `${n} in ${globs.join(' ')}`).toBe(
              first === -1 ? null : `p${first}.*`,
            );
          }
        },
      ),
      { numRuns: 2000 },
    );
  });
});
