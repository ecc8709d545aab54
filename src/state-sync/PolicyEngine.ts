import { freezePolicy } from './freezePolicy.js';
import { matchGlob } from './matchGlob.js';
import { validatePolicies } from './PolicyValidator.js';
import type { CacheDirective, ResolvedPolicy, SyncPolicy } from './types.js';

/** Bound of the resolution caches; on overflow a cache is emptied (full eviction). */
export const MAX_CACHE_ENTRIES = 2048;

/**
 * First-match-wins resolution of tool names against State Sync policies, validated at construction and
 * cached (at most {@link MAX_CACHE_ENTRIES} names, full eviction on overflow).
 *
 * The first policy whose `match` matches the name wins, even when it sets only some fields: its
 * `cacheControl`, or `defaults.cacheControl` when it has none, and its `invalidates`. Unmatched names get
 * `defaults.cacheControl`. The result is `null` when nothing applies (no directive and no invalidation),
 * and otherwise a frozen {@link ResolvedPolicy} shared by every name that resolves to it.
 * @example
 * const engine = new PolicyEngine([{ match: 'countries.*', cacheControl: 'immutable' }], { cacheControl: 'no-store' });
 * engine.resolve('countries.list'); // { cacheControl: 'immutable' }
 * engine.resolve('sprints.list');   // { cacheControl: 'no-store' }
 * @see docs/state-sync.md
 */
export class PolicyEngine {
  readonly #rules: readonly { readonly match: string; readonly resolved: ResolvedPolicy | null }[];
  readonly #fallback: ResolvedPolicy | null;
  readonly #cache = new Map<string, ResolvedPolicy | null>();

  constructor(policies: readonly SyncPolicy[], defaults?: { cacheControl?: CacheDirective }) {
    validatePolicies(policies, defaults);
    const fallback = defaults?.cacheControl;
    this.#rules = policies.map((p) => ({ match: p.match, resolved: freezePolicy(p.cacheControl ?? fallback, p.invalidates) }));
    this.#fallback = freezePolicy(fallback, undefined);
  }

  /** The frozen policy of `name`, or `null` when nothing applies. O(P) the first time, O(1) after. */
  resolve(name: string): ResolvedPolicy | null {
    const hit = this.#cache.get(name);
    if (hit !== undefined) return hit;
    const rule = this.#rules.find((r) => matchGlob(r.match, name));
    const resolved = rule === undefined ? this.#fallback : rule.resolved;
    if (this.#cache.size >= MAX_CACHE_ENTRIES) this.#cache.clear();
    this.#cache.set(name, resolved);
    return resolved;
  }

  /** Names currently in the resolution cache (never above {@link MAX_CACHE_ENTRIES}); for tests and metrics. */
  get cacheSize(): number {
    return this.#cache.size;
  }
}
