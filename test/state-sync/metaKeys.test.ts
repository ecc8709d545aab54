import { describe, expect, it } from 'vitest';
import { META } from '../../src/state-sync/metaKeys.js';

describe('META', () => {
  it('names every State Sync _meta key under the fusion/ prefix', () => {
    expect(META).toEqual({ cacheControl: 'fusion/cacheControl', invalidation: 'fusion/invalidation' });
  });
});
