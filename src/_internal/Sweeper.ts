import { systemClock, type Clock, type Timer } from './clock.js';

/**
 * One interval timer of `clock` (real and unref'd by default) that runs `sweep` while there is something to
 * sweep: {@link arm} starts it (idempotent), {@link disarm} stops it. It never keeps a process alive, and a
 * store that empties disarms it.
 */
export class Sweeper {
  readonly #sweep: () => void;
  readonly #everyMs: number;
  readonly #clock: Clock;
  #timer: Timer | undefined;

  constructor(sweep: () => void, everyMs: number, clock: Clock = systemClock) {
    if (!(Number.isFinite(everyMs) && everyMs > 0))
      throw new RangeError(`A sweep interval must be a positive number of milliseconds (got ${String(everyMs)}).`);
    this.#sweep = sweep;
    this.#everyMs = everyMs;
    this.#clock = clock;
  }

  /** True while the timer runs. */
  get armed(): boolean {
    return this.#timer !== undefined;
  }

  arm(): void {
    if (this.#timer !== undefined) return;
    this.#timer = this.#clock.setInterval(this.#sweep, this.#everyMs);
  }

  disarm(): void {
    this.#timer?.cancel();
    this.#timer = undefined;
  }
}
