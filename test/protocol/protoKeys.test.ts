import { describe, expect, it } from 'vitest';
import { protoKeyPath } from '../../src/protocol/protoKeys.js';

describe('protoKeyPath', () => {
  it('finds an own __proto__ key at any depth, and nothing in ordinary arguments', () => {
    expect(protoKeyPath(JSON.parse('{"a":1,"__proto__":{"x":1}}'))).toBe('__proto__');
    expect(protoKeyPath(JSON.parse('{"a":{"b":[{"__proto__":1}]}}'))).toBe('a.b.0.__proto__');
    expect(protoKeyPath({ a: 1, constructor: 'c', b: [1, { c: null }] })).toBeUndefined();
    expect(protoKeyPath(undefined)).toBeUndefined();
  });

  it('finds a key past the first 10,000 values of a large request (it was once skipped there)', () => {
    const big = { rows: Array.from({ length: 30_000 }, (_, i) => ({ i })), tail: JSON.parse('{"__proto__":{"a":1}}') };
    expect(protoKeyPath(big)).toBe('tail.__proto__');
    const deep = JSON.parse(`${'{"a":'.repeat(5_000)}{"__proto__":1}${'}'.repeat(5_000)}`);
    expect(protoKeyPath(deep)).toBe(`${'a.'.repeat(5_000)}__proto__`);
  });
});
