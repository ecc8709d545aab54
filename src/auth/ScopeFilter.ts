import { principalOf } from '../principal/principalOf.js';
import { missingScopes } from './checkScopes.js';

const MAX_VIEWS = 256;

/** Anything that may require scopes: a tool, a prompt, a resource or a template. */
export interface ScopedItem {
  readonly requiredScopes?: readonly string[] | undefined;
}

/**
 * Per-item scopes, as one stage of the request path: which items a principal's scopes allow, and a view
 * (a narrowed surface and its frozen lists) built once per distinct set of relevant scopes. Only scopes some
 * item requires count, so every principal with the same relevant grants shares one cached view.
 * @see docs/security.md#scopes
 */
export class ScopeFilter<View> {
  /** True when some item requires a scope, i.e. lists depend on who asks. */
  readonly active: boolean;
  readonly #relevant: ReadonlySet<string>;
  readonly #views = new Map<string, View>();

  constructor(items: readonly ScopedItem[]) {
    this.#relevant = new Set(items.flatMap((i) => i.requiredScopes ?? []));
    this.active = this.#relevant.size > 0;
  }

  /** The scopes the verified token of a request grants (none without one). */
  static scopesOf(authInfo: unknown): readonly string[] {
    return principalOf(authInfo).scopes;
  }

  /** True when `granted` holds every scope `item` requires. */
  allows(item: ScopedItem, granted: readonly string[]): boolean {
    return missingScopes(item.requiredScopes, granted).length === 0;
  }

  /** The scopes `item` requires that `granted` lacks. */
  missing(item: ScopedItem, granted: readonly string[]): string[] {
    return missingScopes(item.requiredScopes, granted);
  }

  /** The view of `granted`, built by `build(allowed)` on the first request of its scope set. */
  view(granted: readonly string[], build: (allowed: (item: ScopedItem) => boolean) => View): View {
    const key = [...new Set(granted.filter((s) => this.#relevant.has(s)))].sort().join(' ');
    let view = this.#views.get(key);
    if (view === undefined) {
      const set = new Set(key === '' ? [] : key.split(' '));
      view = build((item) => (item.requiredScopes ?? []).every((s) => set.has(s)));
      if (this.#views.size >= MAX_VIEWS) this.#views.clear();
      this.#views.set(key, view);
    }
    return view;
  }
}
