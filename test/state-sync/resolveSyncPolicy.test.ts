import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resolveSyncPolicy } from '../../src/state-sync/resolveSyncPolicy.js';
import type { CacheDirective, InlineSyncDeclaration, ResolvedPolicy } from '../../src/state-sync/types.js';

describe('resolveSyncPolicy', () => {
  const registry: ResolvedPolicy = Object.freeze({
    cacheControl: 'immutable',
    invalidates: Object.freeze(['audit.*']),
  });

  it('returns the registry answer itself when the tool declares nothing inline', () => {
    expect(resolveSyncPolicy(undefined, registry)).toBe(registry);
    expect(resolveSyncPolicy(undefined, null)).toBeNull();
  });

  it('lets the inline directive win and keeps the registry’s invalidates', () => {
    expect(resolveSyncPolicy({ cacheControl: 'no-store' }, registry)).toEqual({
      cacheControl: 'no-store',
      invalidates: ['audit.*'],
    });
  });

  it('lets inline invalidates replace the registry’s (no union) and keeps the registry’s directive', () => {
    expect(resolveSyncPolicy({ invalidates: ['countries.*'] }, registry)).toEqual({
      cacheControl: 'immutable',
      invalidates: ['countries.*'],
    });
  });

  it('treats an empty inline invalidates as undeclared', () => {
    expect(resolveSyncPolicy({ invalidates: [] }, registry)).toEqual(registry);
    expect(resolveSyncPolicy({ invalidates: [] }, null)).toBeNull();
  });

  it('uses the inline declaration alone when no policy or default applies', () => {
    expect(resolveSyncPolicy({ cacheControl: 'immutable' }, null)).toEqual({ cacheControl: 'immutable' });
    expect(resolveSyncPolicy({ invalidates: ['sprints.*'] }, null)).toEqual({ invalidates: ['sprints.*'] });
  });

  it('returns a frozen policy that does not alias the declaration’s array', () => {
    const patterns = ['sprints.*'];
    const out = resolveSyncPolicy({ invalidates: patterns }, null)!;
    expect(Object.isFrozen(out)).toBe(true);
    expect(Object.isFrozen(out.invalidates)).toBe(true);
    patterns.push('tasks.*');
    expect(out.invalidates).toEqual(['sprints.*']);
  });

  it('decides each field independently: inline if declared, else registry', () => {
    const directive = fc.option(fc.constantFrom<CacheDirective>('no-store', 'immutable'), { nil: undefined });
    const patterns = fc.option(fc.array(fc.constantFrom('a.*', 'b.**', 'c'), { minLength: 1, maxLength: 3 }), {
      nil: undefined,
    });
    fc.assert(
      fc.property(directive, patterns, directive, patterns, (ic, ii, rc, ri) => {
        const inline: InlineSyncDeclaration = { ...(ic && { cacheControl: ic }), ...(ii && { invalidates: ii }) };
        const registry: ResolvedPolicy | null =
          rc === undefined && ri === undefined
            ? null
            : { ...(rc && { cacheControl: rc }), ...(ri && { invalidates: ri }) };
        const out = resolveSyncPolicy(inline, registry);
        const cacheControl = ic ?? rc;
        const invalidates = ii ?? ri;
        if (cacheControl === undefined && invalidates === undefined) expect(out).toBeNull();
        else expect(out).toEqual({ ...(cacheControl && { cacheControl }), ...(invalidates && { invalidates }) });
      }),
      { numRuns: 300 },
    );
  });
});
