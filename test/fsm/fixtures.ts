import type { FsmConfig } from '../../src/index.js';

/** The engines every gate test runs against. */
export const engines = ['builtin', 'xstate'] as const;

/** The seed's standalone example. */
export const approval: FsmConfig = {
  id: 'approval',
  initial: 'draft',
  states: {
    draft: { on: { SUBMIT: 'review' } },
    review: { on: { APPROVE: 'approved', REJECT: 'draft' } },
    approved: { type: 'final' },
  },
};

/** The seed's checkout workflow. */
export const checkout: FsmConfig = {
  id: 'checkout',
  initial: 'empty',
  states: {
    empty: { on: { ADD_ITEM: 'has_items' } },
    has_items: { on: { CHECKOUT: 'payment', CLEAR: 'empty' } },
    payment: { on: { PAY: 'confirmed', CANCEL: 'has_items' } },
    confirmed: { type: 'final' },
  },
};

/** A chain s0 → s1 → … → s{n} on NEXT: every lost transition shows in the final state. */
export function chain(n: number): FsmConfig {
  const states: FsmConfig['states'] = {};
  for (let i = 0; i < n; i++) states[`s${i}`] = { on: { NEXT: `s${i + 1}` } };
  states[`s${n}`] = { type: 'final' };
  return { id: 'chain', initial: 's0', states };
}

/** The message of what `fn` throws (fails when it does not throw). */
export function thrown(fn: () => unknown): Error {
  try {
    fn();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a throw');
}

/** Payment is a compound state (card ⇄ wallet); review is parallel (legal and tech at once). */
export const statechart: FsmConfig = {
  id: 'order',
  initial: 'browsing',
  states: {
    browsing: { on: { PAY: 'payment', REVIEW: 'review' } },
    payment: {
      initial: 'card',
      states: { card: { on: { SWITCH: 'wallet' } }, wallet: { on: { SWITCH: 'card' } } },
      on: { PAID: 'done', CANCEL: 'browsing' },
    },
    review: {
      type: 'parallel',
      states: {
        legal: { initial: 'open', states: { open: { on: { APPROVE_LEGAL: 'ok' } }, ok: {} } },
        tech: { initial: 'open', states: { open: { on: { APPROVE_TECH: 'ok' } }, ok: {} } },
      },
    },
    done: { type: 'final' },
  },
};
