import { describe, expect, it } from 'vitest';
import { resolveInvalidation } from '../../src/state-sync/CausalEngine.js';

describe('resolveInvalidation', () => {
  const policy = Object.freeze({ invalidates: Object.freeze(['tasks.*', 'sprints.*']) });

  it('returns the policy’s patterns, in declaration order, after a successful call', () => {
    expect(resolveInvalidation(policy, {})).toBe(policy.invalidates);
    expect(resolveInvalidation(policy, { isError: false })).toEqual(['tasks.*', 'sprints.*']);
  });

  it('returns null for a failed call (isError guard): the state did not change', () => {
    expect(resolveInvalidation(policy, { isError: true })).toBeNull();
  });

  it('returns null when there is no policy or it invalidates nothing', () => {
    expect(resolveInvalidation(null, {})).toBeNull();
    expect(resolveInvalidation({ cacheControl: 'no-store' }, {})).toBeNull();
    expect(resolveInvalidation({ invalidates: [] }, {})).toBeNull();
  });
});
