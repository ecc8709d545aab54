import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { aggregateAnnotations } from '../../../src/builder/strategies/aggregateAnnotations.js';

const hint = (readOnly: boolean, destructive = false, idempotent = false) => ({ readOnly, destructive, idempotent });

describe('aggregateAnnotations', () => {
  it('is read-only and idempotent only when every action is', () => {
    expect(aggregateAnnotations([hint(true, false, true), hint(true, false, true)])).toEqual({
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
    });
    expect(aggregateAnnotations([hint(true, false, true), hint(false, false, false)])).toEqual({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
    });
  });

  it('is destructive when any action is, and says destructiveHint: false explicitly on safe tools', () => {
    expect(aggregateAnnotations([hint(true), hint(false, true)])).toEqual({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
    });
    expect(aggregateAnnotations([hint(false), hint(false)]).destructiveHint).toBe(false);
  });

  it('claims nothing for a tool without actions', () => {
    expect(aggregateAnnotations([])).toEqual({ readOnlyHint: false, destructiveHint: false, idempotentHint: false });
  });

  it('matches every/some over the actions for any mix', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ readOnly: fc.boolean(), destructive: fc.boolean(), idempotent: fc.boolean() }), {
          minLength: 1,
        }),
        (actions) => {
          const a = aggregateAnnotations(actions);
          expect(a.readOnlyHint).toBe(actions.every((x) => x.readOnly));
          expect(a.destructiveHint).toBe(actions.some((x) => x.destructive));
          expect(a.idempotentHint).toBe(actions.every((x) => x.idempotent));
        },
      ),
    );
  });
});
