import { describe, expect, it } from 'vitest';
import { protoKeyPath } from '../../src/protocol/protoKeys.js';

describe('protoKeyPath', () => {
  it('finds an own __proto__ key at any depth, and nothing in ordinary arguments', () => {
    expect(protoKeyPath(JSON.parse('{"a":1,"__proto__":{"x":1}}'))).toBe('__proto__');
    expect(protoKeyPath(JSON.parse('{"a":{"b":[{"__proto__":1}]}}'))).toBe('a.b.0.__proto__');
    expect(protoKeyPath({ a: 1, constructor: 'c', b: [1, { c: null }] })).toBeUndefined();
    expect(protoKeyPath(undefined)).toBeUndefined();
  });
});
