/** A scheduled callback of a {@link Clock}: cancel it, or restart its countdown in place. */
export interface Timer {
  /** Stops the timer; calling it again does nothing. */
  cancel(): void;
  /** Restarts the countdown from now with the same delay (a pending debounce moves, no new timer). */
  refresh(): void;
}

/**
 * Time and timers in one place, so that TTLs, sweeps, debounces and deadlines can be driven by a test
 * (`createClock()` of `mcp-fusion/testing`) instead of waiting. The real one ({@link systemClock}) unrefs
 * every timer: a timer never keeps a process alive.
 */
export interface Clock {
  /** The current time in epoch milliseconds. */
  now(): number;
  /** Runs `fn` once after `ms`. */
  setTimeout(fn: () => void, ms: number): Timer;
  /** Runs `fn` every `ms` until cancelled. */
  setInterval(fn: () => void, ms: number): Timer;
}

/** The property by which a `now` function names the clock it belongs to (see {@link clockOf}). */
const CLOCK = Symbol.for('mcp-fusion.clock');

type Handle = ReturnType<typeof setTimeout>;

function realTimer(fn: () => void, ms: number, repeat: boolean, keepAlive = false): Timer {
  const start = (): Handle => {
    const handle = repeat ? setInterval(fn, ms) : setTimeout(fn, ms);
    if (!keepAlive) (handle as { unref?: () => void }).unref?.();
    return handle;
  };
  const stop = (): void => (repeat ? clearInterval(handle) : clearTimeout(handle));
  let handle = start();
  return {
    cancel: stop,
    refresh: () => {
      // Node's timers restart in place; where a timer is a number (other runtimes), it is replaced.
      if (typeof handle === 'object' && typeof handle.refresh === 'function') handle.refresh();
      else {
        stop();
        handle = start();
      }
    },
  };
}

/** The wall clock (`Date.now`) with real, unref'd timers. */
export const systemClock: Clock = Object.freeze({
  now: () => Date.now(),
  setTimeout: (fn: () => void, ms: number) => realTimer(fn, ms, false),
  setInterval: (fn: () => void, ms: number) => realTimer(fn, ms, true),
});

/**
 * The wall clock with timers that keep the process alive: for a wait that may be all a program is doing
 * (a client polling a task on another server), where an unref'd timer would let the process exit mid-wait.
 */
export const keepAliveClock: Clock = Object.freeze({
  now: () => Date.now(),
  setTimeout: (fn: () => void, ms: number) => realTimer(fn, ms, false, true),
  setInterval: (fn: () => void, ms: number) => realTimer(fn, ms, true, true),
});

/** A monotonic clock (`performance.now`, not epoch time) with real timers: deadlines must not move with the wall clock. */
export const monotonicClock: Clock = Object.freeze({ ...systemClock, now: () => performance.now() });

/**
 * The `now` function of `clock`, marked so that {@link clockOf} finds the clock from it: every option that
 * takes `now` (the attach and app option, the stores' options) then gets the clock's timers as well.
 */
export function nowOf(clock: Clock): () => number {
  return Object.assign(() => clock.now(), { [CLOCK]: clock });
}

/** The clock a `now` function was made from by {@link nowOf}, else `undefined` (a plain function). */
export function carriedClock(now: (() => number) | undefined): Clock | undefined {
  return (now as { [CLOCK]?: Clock } | undefined)?.[CLOCK];
}

/**
 * The clock behind a `now` option: the one it carries ({@link nowOf}: a test clock, timers included),
 * else real timers with `now` as the time (`Date.now` without one).
 */
export function clockOf(now: (() => number) | undefined): Clock {
  if (now === undefined) return systemClock;
  return carriedClock(now) ?? { ...systemClock, now };
}

const nows = new WeakMap<Clock, () => number>();

/**
 * The `now` of a `clock` option, for the parts that take a `now` function: it carries the clock ({@link nowOf}),
 * so their timers run on it too; the same function for the same clock; `undefined` without one.
 */
export function nowOption(clock: Clock | undefined): (() => number) | undefined {
  if (clock === undefined) return undefined;
  let now = nows.get(clock);
  if (now === undefined) nows.set(clock, (now = nowOf(clock)));
  return now;
}
