import type { InvalidationMeta } from './types.js';

/** Hears every invalidation: the patterns, in declaration order, and the tool that caused them. */
export type InvalidationListener = (patterns: readonly string[], causedBy: string) => void;

/** The last invalidation of one pattern. */
export interface LastInvalidation {
  readonly causedBy: string;
  /** ISO-8601 time of the call. */
  readonly at: string;
}

/** Optional hooks of an {@link InvalidationLog} (the pipeline's debug observer). */
export interface InvalidationLogHooks {
  /** After each recorded invalidation, before the listeners. */
  readonly recorded?: InvalidationListener;
  /** A listener threw; the others still ran. */
  readonly listenerFailed?: (error: unknown) => void;
}

/**
 * One attachment's record of invalidations: the last one of each pattern (read by
 * `fusion://stale/{pattern}`) and the listeners that hear them (the HTTP app's `resources/updated`).
 * Recording is O(patterns of the call) with no allocation: the frozen `_meta['fusion/invalidation']`
 * value is kept as is. Its keys are the patterns the configuration declares, so it never grows past them.
 * Nothing here waits: concurrent calls never queue behind one another.
 */
export class InvalidationLog {
  readonly #last = new Map<string, LastInvalidation>();
  readonly #listeners = new Set<InvalidationListener>();
  readonly #hooks: InvalidationLogHooks;

  constructor(hooks: InvalidationLogHooks = {}) {
    this.#hooks = hooks;
  }

  /** Records an invalidation, then tells the hooks and every listener (a throwing listener is reported, never rethrown). */
  record(meta: InvalidationMeta): void {
    const { patterns, causedBy } = meta;
    for (let i = 0; i < patterns.length; i++) this.#last.set(patterns[i]!, meta);
    this.#hooks.recorded?.(patterns, causedBy);
    if (this.#listeners.size === 0) return;
    for (const listener of this.#listeners) {
      try {
        listener(patterns, causedBy);
      } catch (error) {
        this.#hooks.listenerFailed?.(error);
      }
    }
  }

  /** The last invalidation of `pattern` (exactly as declared, such as `sprints.*`), if any. */
  last(pattern: string): LastInvalidation | undefined {
    return this.#last.get(pattern);
  }

  /** Adds a listener; returns unsubscribe. */
  listen(listener: InvalidationListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
