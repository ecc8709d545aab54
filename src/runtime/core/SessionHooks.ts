import type { RuntimeCore } from './RuntimeCore.js';
import type { WorkflowRuntime } from '../../workflow/WorkflowRuntime.js';

/**
 * The sessions (legacy) and connections an attachment registered with a runtime: where each one's
 * `list_changed` goes, and the per-session state dropped when it closes.
 */
export class SessionHooks {
  readonly #notifiers = new Map<string, () => Promise<void>>();
  readonly #core: RuntimeCore;
  /** Set once the workflow runtime exists (it is built after the hooks it notifies through). */
  workflow: WorkflowRuntime | undefined;

  constructor(core: RuntimeCore) {
    this.#core = core;
  }

  /** Routes list_changed notifications of one session (legacy) or connection to its server. */
  register(key: string, notifyToolsChanged: () => Promise<void>): void {
    this.#notifiers.set(key, notifyToolsChanged);
  }

  /** The list_changed sender of `key`, if its server registered one. */
  notifierOf(key: string): (() => Promise<void>) | undefined {
    return this.#notifiers.get(key);
  }

  /** Drops the per-session state of a closed session or connection. */
  release(key: string): void {
    this.#notifiers.delete(key);
    // In-memory data cannot outlive its session; a configured store keeps it until the session is destroyed.
    if (this.#core.ownsSessionData) void this.#core.sessionData.delete(`s:${key}`).catch(() => {});
    this.workflow?.sessions.release(key);
  }

  /** Number of sessions holding in-memory state (for leak checks). */
  get count(): number {
    return Math.max(this.#notifiers.size, this.workflow?.sessions.size ?? 0);
  }

  clear(): void {
    this.#notifiers.clear();
  }
}
