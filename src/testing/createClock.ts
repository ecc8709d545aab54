import { nowOf, type Timer } from '../_internal/clock.js';

/**
 * A time source and timers that tests move by hand. Pass it as the `clock` option of the app, the attachment
 * or the test client, and `clock.now` wherever a part takes a `now` function (it carries the whole clock): TTLs,
 * store sweeps, debounces, listen-stream lifetimes and tool deadlines all run on it, and nothing waits for real time.
 */
export interface TestClock {
  /** The current time in epoch milliseconds. A plain function: `now: clock.now` works detached. */
  readonly now: () => number;
  /**
   * Moves time forward by `ms` (never backwards), running every timer that falls due on the way, in order of
   * due time, each seeing `now()` at its due time; returns the new time.
   */
  readonly advance: (ms: number) => number;
  /**
   * Like {@link advance}, and lets the work each timer starts settle (one turn of the event loop after each
   * timer) before the next one runs: for timers that start asynchronous work (a store sweep, a session
   * expiry that writes its store).
   */
  readonly advanceAsync: (ms: number) => Promise<number>;
  /** Jumps to an absolute time in epoch milliseconds (timers due by then run) and returns it. */
  readonly set: (epochMs: number) => number;
  /** Runs `fn` once after `ms` of this clock's time. */
  readonly setTimeout: (fn: () => void, ms: number) => Timer;
  /** Runs `fn` every `ms` (at least 1) of this clock's time until cancelled. */
  readonly setInterval: (fn: () => void, ms: number) => Timer;
  /** Timers scheduled and not yet run or cancelled (a leak check: a closed app leaves none). */
  readonly pending: number;
}

/** 2026-01-01T00:00:00.000Z: a fixed start keeps timestamps in snapshots and assertions stable. */
const DEFAULT_START = Date.UTC(2026, 0, 1);

interface Scheduled {
  due: number;
  seq: number;
  readonly fn: () => void;
  readonly ms: number;
  readonly repeat: boolean;
}

/**
 * A controllable clock for TTLs, idle timeouts, timestamps and timers, so tests never wait for real time.
 * @example
 * const clock = createClock();
 * const store = new MemorySessionStore({ now: clock.now, sweepEveryMs: 1_000 });
 * await store.set(record, 5_000);
 * clock.advance(6_000); // the store's sweep ran on the way: the record is gone without a read
 * @see docs/testing.md
 */
export function createClock(startMs: number = DEFAULT_START): TestClock {
  let current = checked(startMs, 'createClock(startMs)');
  let seq = 0;
  const timers = new Set<Scheduled>();
  const schedule = (fn: () => void, ms: number, repeat: boolean): Timer => {
    const delay = Math.max(repeat ? 1 : 0, Number.isFinite(ms) ? ms : 0);
    const timer: Scheduled = { due: current + delay, seq: seq++, fn, ms: delay, repeat };
    timers.add(timer);
    return {
      cancel: () => void timers.delete(timer),
      refresh: () => {
        timer.due = current + delay;
        timer.seq = seq++;
        timers.add(timer);
      },
    };
  };
  /** The timer due first by `until` (ties: the one scheduled first), or undefined. */
  const next = (until: number): Scheduled | undefined => {
    let first: Scheduled | undefined;
    for (const t of timers) {
      if (t.due > until) continue;
      if (first === undefined || t.due < first.due || (t.due === first.due && t.seq < first.seq)) first = t;
    }
    return first;
  };
  const fire = (timer: Scheduled): void => {
    current = Math.max(current, timer.due);
    if (timer.repeat) {
      timer.due += timer.ms;
      timer.seq = seq++;
    } else timers.delete(timer);
    timer.fn();
  };
  const run = (until: number): number => {
    for (let timer = next(until); timer !== undefined; timer = next(until)) fire(timer);
    return (current = Math.max(current, until));
  };
  const timed = {
    now: () => current,
    setTimeout: (fn: () => void, ms: number) => schedule(fn, ms, false),
    setInterval: (fn: () => void, ms: number) => schedule(fn, ms, true),
  };
  return Object.freeze({
    ...timed,
    now: nowOf(timed),
    advance: (ms: number) => run(current + forward(ms, 'advance')),
    advanceAsync: async (ms: number) => {
      const until = current + forward(ms, 'advanceAsync');
      for (let timer = next(until); timer !== undefined; timer = next(until)) {
        fire(timer);
        await new Promise((resolve) => setImmediate(resolve));
      }
      return (current = Math.max(current, until));
    },
    set: (epochMs: number) => {
      const to = checked(epochMs, 'clock.set(epochMs)');
      run(to);
      return (current = to);
    },
    get pending() {
      return timers.size;
    },
  });
}

function forward(ms: number, name: string): number {
  if (!Number.isFinite(ms) || ms < 0) {
    throw new RangeError(
      `clock.${name}(${ms}) needs a finite number of milliseconds >= 0; time never runs backwards (use clock.set() to jump).`,
    );
  }
  return ms;
}

function checked(value: number, where: string): number {
  if (!Number.isFinite(value))
    throw new RangeError(`${where} needs a finite number of epoch milliseconds, got ${value}.`);
  return value;
}
