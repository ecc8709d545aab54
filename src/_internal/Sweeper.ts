/**
 * One unref'd interval timer that runs `sweep` while there is something to sweep: {@link arm} starts it
 * (idempotent), {@link disarm} stops it. It never keeps a process alive, and a store that empties disarms it.
 */
export class Sweeper {
  readonly #sweep: () => void;
  readonly #everyMs: number;
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(sweep: () => void, everyMs: number) {
    if (!(Number.isFinite(everyMs) && everyMs > 0)) throw new RangeError(`A sweep interval must be a positive number of milliseconds (got ${String(everyMs)}).`);
    this.#sweep = sweep;
    this.#everyMs = everyMs;
  }

  /** True while the timer runs. */
  get armed(): boolean {
    return this.#timer !== undefined;
  }

  arm(): void {
    if (this.#timer !== undefined) return;
    this.#timer = setInterval(this.#sweep, this.#everyMs);
    this.#timer.unref?.();
  }

  disarm(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
  }
}
