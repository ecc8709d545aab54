import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileResultDecorator, type DecoratedResult } from '../../src/state-sync/compileResultDecorator.js';
import { isoClock } from '../../src/state-sync/isoClock.js';
import type { CacheDirective, InvalidationMeta } from '../../src/state-sync/types.js';

const AT = '2026-01-01T00:00:00.000Z';
const fixed = () => AT;

/**
 * The shape the `stateSync` stage wrote before the decorator was compiled per tool: the signal block and
 * `_meta['fusion/invalidation']` spread onto the result, then the directive spread onto that.
 */
function previousShape(
  result: DecoratedResult,
  invalidates: readonly string[],
  directive: CacheDirective | undefined,
  causedBy: string,
  at: string,
): DecoratedResult {
  if (result.isError === true) return result;
  let decorated = result;
  if (invalidates.length > 0) {
    const content = Array.isArray(result.content) ? result.content : [];
    decorated = {
      ...result,
      content: [
        {
          type: 'text',
          text: `[System: Cache invalidated for ${invalidates.join(', ')} \u2014 caused by ${causedBy}]`,
        },
        ...content,
      ],
      _meta: { ...result._meta, 'fusion/invalidation': { patterns: [...invalidates], causedBy, at } },
    };
  }
  return directive === undefined
    ? decorated
    : { ...decorated, _meta: { ...decorated._meta, 'fusion/cacheControl': directive } };
}

const json = fc.oneof(
  fc.string(),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.dictionary(fc.string({ maxLength: 4 }), fc.string(), { maxKeys: 3 }),
);
const block = fc.record({ type: fc.constant('text'), text: fc.string() });
/** Results with the fields in any order: content, isError, _meta (sometimes holding State Sync's own keys), extras. */
const resultArb = fc
  .record(
    {
      content: fc.array(block, { maxLength: 3 }),
      isError: fc.boolean(),
      _meta: fc.dictionary(fc.constantFrom('app/a', 'fusion/invalidation', 'fusion/cacheControl', 'z'), json, {
        maxKeys: 4,
      }),
      structuredContent: fc.dictionary(fc.string({ maxLength: 4 }), json, { maxKeys: 2 }),
      extra: json,
    },
    { requiredKeys: [] },
  )
  .chain((r) =>
    fc
      .shuffledSubarray(Object.keys(r), { minLength: Object.keys(r).length })
      .map((keys) => Object.fromEntries(keys.map((k) => [k, r[k as keyof typeof r]])) as DecoratedResult),
  );
const patternsArb = fc.array(fc.constantFrom('tasks.*', 'sprints.*', 'audit.**', 'a.b'), { maxLength: 3 });
const directiveArb = fc.constantFrom<CacheDirective | undefined>(undefined, 'no-store', 'immutable');

describe('compileResultDecorator', () => {
  it('writes byte for byte what the stage wrote before, key order included, without touching the input', () => {
    fc.assert(
      fc.property(resultArb, patternsArb, directiveArb, (result, invalidates, directive) => {
        const before = structuredClone(result);
        const decorate = compileResultDecorator({
          causedBy: 'tasks.update',
          invalidates,
          cacheControl: directive,
          stamp: fixed,
        });
        const out = decorate(result);
        expect(JSON.stringify(out)).toBe(
          JSON.stringify(previousShape(before, invalidates, directive, 'tasks.update', AT)),
        );
        expect(result).toEqual(before);
      }),
      { numRuns: 400 },
    );
  });

  it('pins one decorated result exactly', () => {
    const decorate = compileResultDecorator({
      causedBy: 'tasks.update',
      invalidates: ['tasks.*', 'sprints.*'],
      cacheControl: 'no-store',
      stamp: fixed,
    });
    expect(JSON.stringify(decorate({ content: [{ type: 'text', text: 'ok' }], _meta: { 'app/trace': 't-1' } }))).toBe(
      '{"content":[{"type":"text","text":"[System: Cache invalidated for tasks.*, sprints.* — caused by tasks.update]"},{"type":"text","text":"ok"}],"_meta":{"app/trace":"t-1","fusion/invalidation":{"patterns":["tasks.*","sprints.*"],"causedBy":"tasks.update","at":"2026-01-01T00:00:00.000Z"},"fusion/cacheControl":"no-store"}}',
    );
  });

  it('returns failed results, and every result of a tool with nothing to say, as they are', () => {
    const failed = { content: [{ type: 'text', text: 'no' }], isError: true };
    expect(
      compileResultDecorator({ causedBy: 't', invalidates: ['a.*'], cacheControl: 'no-store', stamp: fixed })(failed),
    ).toBe(failed);
    expect(compileResultDecorator({ causedBy: 't', cacheControl: 'immutable', stamp: fixed })(failed)).toBe(failed);
    const ok = { content: [] };
    expect(compileResultDecorator({ causedBy: 't', invalidates: [], stamp: fixed })(ok)).toBe(ok);
  });

  it('shares the frozen parts within a millisecond and restamps when the clock moves', () => {
    let now = Date.parse(AT);
    const heard: InvalidationMeta[] = [];
    const decorate = compileResultDecorator({
      causedBy: 'tasks.update',
      invalidates: ['tasks.*'],
      stamp: isoClock(() => now),
      announce: (meta) => heard.push(meta),
    });
    const empty = (): DecoratedResult => ({ content: [] });
    const a = decorate(empty());
    const b = decorate(empty());
    expect(a).not.toBe(b);
    expect(a.content[0]).toBe(b.content[0]);
    expect(Object.isFrozen(a.content[0])).toBe(true);
    expect(a._meta).toBe(b._meta);
    expect(Object.isFrozen(a._meta)).toBe(true);
    now += 1;
    const c = decorate(empty());
    expect(c._meta?.['fusion/invalidation']).toEqual({
      patterns: ['tasks.*'],
      causedBy: 'tasks.update',
      at: '2026-01-01T00:00:00.001Z',
    });
    expect(heard.map((m) => m.at)).toEqual([AT, AT, '2026-01-01T00:00:00.001Z']);
    expect(heard[0]).toBe(heard[1]);
    expect(Object.isFrozen(heard[2])).toBe(true);
    expect(Object.isFrozen(heard[2]!.patterns)).toBe(true);
  });

  it('keeps an own "__proto__" key (from JSON.parse) as a key, as the spread did, without touching prototypes', () => {
    for (const directive of [undefined, 'no-store'] as const) {
      for (const invalidates of [['a.*'], []]) {
        const result = JSON.parse(
          '{"__proto__":{"polluted":true},"content":[],"_meta":{"__proto__":{"polluted":true},"k":1}}',
        ) as DecoratedResult;
        const out = compileResultDecorator({ causedBy: 't', invalidates, cacheControl: directive, stamp: fixed })(
          result,
        );
        expect(JSON.stringify(out)).toBe(JSON.stringify(previousShape(result, invalidates, directive, 't', AT)));
        expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
        expect(Object.getPrototypeOf(out._meta)).toBe(Object.prototype);
      }
    }
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });

  it('announces nothing for a failed result', () => {
    const heard: InvalidationMeta[] = [];
    compileResultDecorator({ causedBy: 't', invalidates: ['a.*'], stamp: fixed, announce: (meta) => heard.push(meta) })(
      { content: [], isError: true },
    );
    expect(heard).toEqual([]);
  });
});

describe('isoClock', () => {
  it('formats any millisecond as Date#toISOString does, and reuses the string within the millisecond', () => {
    fc.assert(
      fc.property(fc.integer({ min: -8.64e15, max: 8.64e15 }), (ms) => {
        const stamp = isoClock(() => ms);
        const first = stamp();
        expect(first).toBe(new Date(ms).toISOString());
        expect(stamp()).toBe(first);
      }),
    );
  });

  it('follows the clock', () => {
    let now = 0;
    const stamp = isoClock(() => now);
    expect(stamp()).toBe('1970-01-01T00:00:00.000Z');
    now = 1500;
    expect(stamp()).toBe('1970-01-01T00:00:01.500Z');
  });
});
