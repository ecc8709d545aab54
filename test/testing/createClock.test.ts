import { describe, expect, it } from 'vitest';
import { StateMachineGate } from '../../src/index.js';
import { createClock } from '../../src/testing/index.js';

describe('createClock', () => {
  it('starts at a fixed time and moves only when told', () => {
    const clock = createClock();
    expect(new Date(clock.now()).toISOString()).toBe('2026-01-01T00:00:00.000Z');
    expect(clock.advance(90_000)).toBe(Date.UTC(2026, 0, 1, 0, 1, 30));
    expect(clock.now()).toBe(Date.UTC(2026, 0, 1, 0, 1, 30));
    expect(clock.set(5)).toBe(5);
  });

  it('works detached as a now option', async () => {
    const clock = createClock(1_000);
    const gate = new StateMachineGate({ initial: 'a', states: { a: { on: { GO: 'b' } }, b: {} } }, { engine: 'builtin', now: clock.now });
    clock.advance(500);
    await gate.transition('GO');
    expect(gate.snapshot()).toEqual({ state: 'b', updatedAt: 1_500 });
  });

  it('refuses to run backwards', () => {
    const clock = createClock();
    expect(() => clock.advance(-1)).toThrowErrorMatchingInlineSnapshot(`[RangeError: clock.advance(-1) needs a finite number of milliseconds >= 0; time never runs backwards (use clock.set() to jump).]`);
  });
});
