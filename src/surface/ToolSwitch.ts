/**
 * Which registered tools are disabled right now, shared by a registry and every pipeline built from it.
 * Each change bumps `version` (pipelines rebuild their lists lazily) and tells the listeners, which send
 * `notifications/tools/list_changed` to legacy sessions and modern listen streams.
 */
export class ToolSwitch {
  readonly #disabled = new Set<string>();
  readonly #listeners = new Set<() => void>();
  #version = 0;

  get version(): number {
    return this.#version;
  }

  isDisabled(name: string): boolean {
    return this.#disabled.size > 0 && this.#disabled.has(name);
  }

  /** Sets a tool's state; returns false (and notifies nobody) when nothing changed. */
  set(name: string, enabled: boolean): boolean {
    if (enabled === !this.#disabled.has(name)) return false;
    if (enabled) this.#disabled.delete(name);
    else this.#disabled.add(name);
    this.#version++;
    for (const listener of [...this.#listeners]) {
      try {
        listener();
      } catch {
        // A failing listener must not stop the others.
      }
    }
    return true;
  }

  /** Hears every change; returns unsubscribe. */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
