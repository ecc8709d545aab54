/**
 * A log that handlers append to and tests wait on by count: `reached(n)` resolves when the n-th entry arrives
 * (readiness by the event itself, no polling, no time bound of its own: the test's timeout is the bound).
 */
export interface Heard<T> {
  /** Every entry so far, in order. */
  readonly items: readonly T[];
  readonly push: (item: T) => void;
  /** Resolves once at least `count` entries arrived. */
  readonly reached: (count: number) => Promise<void>;
}

export function heard<T>(): Heard<T> {
  const items: T[] = [];
  let waiters: Array<{ count: number; resolve: () => void }> = [];
  return {
    items,
    push: (item) => {
      items.push(item);
      const due = waiters.filter((w) => items.length >= w.count);
      waiters = waiters.filter((w) => items.length < w.count);
      for (const w of due) w.resolve();
    },
    reached: (count) =>
      items.length >= count ? Promise.resolve() : new Promise((resolve) => void waiters.push({ count, resolve })),
  };
}
