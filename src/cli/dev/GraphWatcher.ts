import { watch, type FSWatcher } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { systemClock, type Timer } from '../../_internal/clock.js';

/** Options of {@link GraphWatcher}. */
export interface GraphWatcherOptions {
  /** Called once a burst of changes has settled, with the first changed file (absolute path). */
  onChange(file: string): void;
  /** How long the files must stay quiet before `onChange` (default 100 ms): an editor's save is one reload. */
  debounceMs?: number;
  /** Timers (default: the real ones; tests pass `createClock()` of `mcp-fusion/testing`). */
  clock?: { setTimeout(fn: () => void, ms: number): Timer };
}

/**
 * Watches a set of files — the module graph a dev server loaded — and nothing else beside them: each
 * file's folder is watched (so an editor's save by rename is seen) and events for other names in it (logs,
 * exported sessions, diagrams) are ignored. Changes are debounced into one `onChange`.
 */
export class GraphWatcher {
  readonly #files = new Set<string>();
  readonly #folders = new Map<string, FSWatcher>();
  readonly #onChange: (file: string) => void;
  readonly #debounceMs: number;
  readonly #clock: NonNullable<GraphWatcherOptions['clock']>;
  #timer: Timer | undefined;
  #burst: string[] = [];

  constructor(options: GraphWatcherOptions) {
    this.#onChange = options.onChange;
    this.#debounceMs = options.debounceMs ?? 100;
    this.#clock = options.clock ?? systemClock;
  }

  /** The files watched, absolute. */
  get files(): ReadonlySet<string> {
    return this.#files;
  }

  /** The files changed in the burst whose `onChange` still waits for quiet, the first first (empty: none). */
  get pending(): readonly string[] {
    return this.#burst;
  }

  /** Adds files (absolute paths) to the watched set. */
  add(files: Iterable<string>): void {
    for (const file of files) {
      const path = resolve(file);
      this.#files.add(path);
      const folder = dirname(path);
      if (this.#folders.has(folder)) continue;
      try {
        const watcher = watch(folder, (_event, name) => {
          if (name !== null) this.#saw(join(folder, name.toString()));
        });
        // A folder that disappears stops being watched; its files come back when a reload reports them.
        watcher.on('error', () => {
          watcher.close();
          this.#folders.delete(folder);
        });
        this.#folders.set(folder, watcher);
      } catch {
        // The folder is gone already (a file imported and then deleted): nothing to watch there.
      }
    }
  }

  /** Stops watching; a pending `onChange` is dropped. */
  close(): void {
    this.#timer?.cancel();
    this.#timer = undefined;
    this.#burst = [];
    for (const watcher of this.#folders.values()) watcher.close();
    this.#folders.clear();
  }

  #saw(path: string): void {
    if (!this.#files.has(path)) return;
    if (!this.#burst.includes(path)) this.#burst = [...this.#burst, path];
    if (this.#timer !== undefined) return this.#timer.refresh();
    this.#timer = this.#clock.setTimeout(() => {
      const [file] = this.#burst;
      this.#timer = undefined;
      this.#burst = [];
      this.#onChange(file!);
    }, this.#debounceMs);
  }
}
