import { describe, expect, it } from 'vitest';
import { MemoryRateLimitStore, StateMachineGate } from '../../src/index.js';
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
    const gate = new StateMachineGate(
      { initial: 'a', states: { a: { on: { GO: 'b' } }, b: {} } },
      { engine: 'builtin', now: clock.now },
    );
    clock.advance(500);
    await gate.transition('GO');
    expect(gate.snapshot()).toEqual({ state: 'b', updatedAt: 1_500 });
  });

  it('refuses to run backwards', () => {
    const clock = createClock();
    expect(() => clock.advance(-1)).toThrowErrorMatchingInlineSnapshot(
      `[RangeError: clock.advance(-1) needs a finite number of milliseconds >= 0; time never runs backwards (use clock.set() to jump).]`,
    );
  });

  it('runs due timers in order of due time as it advances, each seeing its own due time', () => {
    const clock = createClock(0);
    const seen: string[] = [];
    clock.setTimeout(() => seen.push(`b@${clock.now()}`), 20);
    clock.setTimeout(() => seen.push(`a@${clock.now()}`), 10);
    clock.setTimeout(() => seen.push(`a2@${clock.now()}`), 10);
    const tick = clock.setInterval(() => seen.push(`i@${clock.now()}`), 15);
    expect(clock.pending).toBe(4);
    expect(clock.advance(9)).toBe(9);
    expect(seen).toEqual([]);
    clock.advance(26);
    expect(seen).toEqual(['a@10', 'a2@10', 'i@15', 'b@20', 'i@30']);
    tick.cancel();
    clock.advance(100);
    expect(seen).toHaveLength(5);
    expect(clock.pending).toBe(0);
  });

  it('runs a timer that a timer schedules within the same advance when it falls due', () => {
    const clock = createClock(0);
    const seen: number[] = [];
    clock.setTimeout(() => clock.setTimeout(() => seen.push(clock.now()), 5), 5);
    clock.advance(10);
    expect(seen).toEqual([10]);
  });

  it('restarts a timer in place with refresh, and cancels it for good', () => {
    const clock = createClock(0);
    let fired = 0;
    const timer = clock.setTimeout(() => fired++, 50);
    clock.advance(40);
    timer.refresh();
    clock.advance(49);
    expect(fired).toBe(0);
    clock.advance(1);
    expect(fired).toBe(1);
    timer.refresh();
    timer.cancel();
    clock.advance(1_000);
    expect(fired).toBe(1);
  });

  it('runs the timers due by a jump of set(), and lets async work settle between timers with advanceAsync', async () => {
    const clock = createClock(0);
    const order: string[] = [];
    clock.setTimeout(() => void Promise.resolve().then(() => order.push('first settled')), 10);
    clock.setTimeout(() => order.push('second'), 20);
    await clock.advanceAsync(20);
    expect(order).toEqual(['first settled', 'second']);
    let jumped = false;
    clock.setTimeout(() => (jumped = true), 1_000);
    clock.set(5_000);
    expect(jumped).toBe(true);
  });

  it('drives the timers of whatever took its now option (a store sweep here)', async () => {
    const clock = createClock();
    const store = new MemoryRateLimitStore({ now: clock.now, sweepEveryMs: 1_000 });
    await store.hit('server:u:a', 5_000);
    expect(clock.pending).toBe(1);
    clock.advance(5_000);
    expect(store.size).toBe(0);
    expect(clock.pending).toBe(0);
  });
});
