import { describe, expect, it } from 'vitest';
import * as stateSync from '../../src/state-sync/index.js';

describe('state-sync barrel', () => {
  it('exports exactly the public State Sync names', () => {
    expect(Object.keys(stateSync).sort()).toEqual([
      'META',
      'PolicyEngine',
      'StateSyncLayer',
      'detectOverlaps',
      'matchGlob',
      'resolveSyncPolicy',
      'validatePolicies',
    ]);
  });
});
