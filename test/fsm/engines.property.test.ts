import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as xstate from 'xstate';
import { builtinEngine } from '../../src/fsm/builtinEngine.js';
import { xstateEngine } from '../../src/fsm/xstateEngine.js';
import { StateMachineGate, type FsmConfig } from '../../src/index.js';

const EVENTS = ['A', 'B', 'C', 'toString', 'constructor'] as const;
// Events sent but never declared, so unhandled events are exercised too.
const SENT = [...EVENTS, 'Z', 'hasOwnProperty'] as const;

/** A random machine over 1–5 states, some final, with random targets. */
const machine: fc.Arbitrary<FsmConfig> = fc.integer({ min: 1, max: 5 }).chain((n) => {
  const names = Array.from({ length: n }, (_, i) => `s${i}`);
  const state = fc.record(
    {
      on: fc.dictionary(fc.constantFrom(...EVENTS), fc.constantFrom(...names), { maxKeys: EVENTS.length }),
      final: fc.boolean(),
    },
    { requiredKeys: ['on', 'final'] },
  );
  return fc
    .tuple(fc.array(state, { minLength: n, maxLength: n }), fc.constantFrom(...names))
    .map(([defs, initial]) => ({
      id: 'random',
      initial,
      states: Object.fromEntries(
        defs.map((d, i) => [names[i]!, d.final ? { type: 'final' as const, on: { ...d.on } } : { on: { ...d.on } }]),
      ),
    }));
});

describe('the built-in engine and XState agree', () => {
  it('on every state × event of random machines', async () => {
    await fc.assert(
      fc.asyncProperty(machine, async (config) => {
        const builtin = new StateMachineGate(config, { engine: 'builtin' });
        const xstate = new StateMachineGate(config, { engine: 'xstate' });
        for (const state of Object.keys(config.states)) {
          for (const event of SENT) expect(await xstate.next(state, event)).toBe(await builtin.next(state, event));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('on random event sequences through transition()', async () => {
    await fc.assert(
      fc.asyncProperty(machine, fc.array(fc.constantFrom(...SENT), { maxLength: 30 }), async (config, events) => {
        const builtin = new StateMachineGate(config, { engine: 'builtin' });
        const xstate = new StateMachineGate(config, { engine: 'xstate' });
        for (const event of events) expect(await xstate.transition(event)).toEqual(await builtin.transition(event));
        expect(xstate.currentState).toBe(builtin.currentState);
      }),
      { numRuns: 300 },
    );
  });

  it('also with an XState older than 5.19 (getNextSnapshot, no transition export)', async () => {
    const old = { ...xstate, transition: undefined };
    await fc.assert(
      fc.property(machine, (config) => {
        const [ours, theirs] = [builtinEngine(config), xstateEngine(old, config)];
        for (const state of Object.keys(config.states))
          for (const event of SENT) expect(theirs(state, event)).toBe(ours(state, event));
      }),
      { numRuns: 100 },
    );
  });
});
