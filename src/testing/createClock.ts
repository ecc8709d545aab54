/** A time source tests move by hand: pass `clock.now` wherever mcp-fusion accepts a `now` option. */
export interface Clock {
  /** The current time in epoch milliseconds. A plain function: `now: clock.now` works detached. */
  readonly now: () => number;
  /** Moves time forward by `ms` (never backwards) and returns the new time. */
  readonly advance: (ms: number) => number;
  /** Jumps to an absolute time in epoch milliseconds and returns it. */
  readonly set: (epochMs: number) => number;
}

/** 2026-01-01T00:00:00.000Z: a fixed start keeps timestamps in snapshots and assertions stable. */
const DEFAULT_START = Date.UTC(2026, 0, 1);

/**
 * A controllable clock for TTLs, idle timeouts and timestamps, so tests never wait for real time.
 * It only answers `now()`; code that schedules with `setTimeout` needs fake timers as well.
 * @example
 * const clock = createClock();
 * const gate = new StateMachineGate(config, { now: clock.now });
 * clock.advance(30 * 60_000); // half an hour later, instantly
 * @see docs/testing.md
 */
export function createClock(startMs: number = DEFAULT_START): Clock {
  let current = checked(startMs, 'createClock(startMs)');
  return Object.freeze({
    now: () => current,
    advance: (ms: number) => {
      if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`clock.advance(${ms}) needs a finite number of milliseconds >= 0; time never runs backwards (use clock.set() to jump).`);
      current += ms;
      return current;
    },
    set: (epochMs: number) => (current = checked(epochMs, 'clock.set(epochMs)')),
  });
}

function checked(value: number, where: string): number {
  if (!Number.isFinite(value)) throw new RangeError(`${where} needs a finite number of epoch milliseconds, got ${value}.`);
  return value;
}
