import { matchGlob } from './matchGlob.js';
import { validatePolicies } from './PolicyValidator.js';
import type { CacheDirective, ResolvedPolicy, SyncPolicy } from './types.js';

/** Resolution cache bound; on overflow the cache is emptied (full eviction). */
export const MAX_CACHE_ENTRIES = 2048;

/**
 * First-match-wins resolution of tool names against State Sync policies, with a bounded cache.
 * Unmatched names get `defaults.cacheControl`, or `null` when there are no defaults.
 * @example new PolicyEngine([{ match: 'countries.*', cacheControl: 'immutable' }]).resolve('countries.list')
 * @see docs/state-sync.md
 */
export class PolicyEngine {
  readonly #policies: readonly ResolvedRule[];
  readonly #fallback: ResolvedPolicy | null;
  readonly #cache = new Map<string, ResolvedPolicy | null>();

  constructor(policies: SyncPolicy[], defaults?: { cacheControl?: CacheDirective }) {
    validatePolicies(policies, defaults);
    this.#policies = policies.map((p) => ({ match: p.match, resolved: freezePolicy(p.cacheControl, p.invalidates) }));
    this.#fallback = defaults?.cacheControl === undefined ? null : freezePolicy(defaults.cacheControl, undefined);
  }

  /** The frozen policy of `name`, or `null` when nothing applies. O(P) the first time, O(1) after. */
  resolve(name: string): ResolvedPolicy | null {
    const hit = this.#cache.get(name);
    if (hit !== undefined || this.#cache.has(name)) return hit ?? null;
    const rule = this.#policies.find((p) => matchGlob(p.match, name));
    const resolved = rule === undefined ? this.#fallback : rule.resolved;
    if (this.#cache.size >= MAX_CACHE_ENTRIES) this.#cache.clear();
    this.#cache.set(name, resolved);
    return resolved;
  }

  /** Entries in the resolution cache (never above {@link MAX_CACHE_ENTRIES}). */
  get cacheSize(): number {
    return this.#cache.size;
  }
}

interface ResolvedRule {
  readonly match: string;
  readonly resolved: ResolvedPolicy;
}

function freezePolicy(cacheControl: CacheDirective | undefined, invalidates: readonly string[] | undefined): ResolvedPolicy {
  const out: { cacheControl?: CacheDirective; invalidates?: readonly string[] } = {};
  if (cacheControl !== undefined) out.cacheControl = cacheControl;
  if (invalidates !== undefined && invalidates.length > 0) out.invalidates = Object.freeze([...invalidates]);
  return Object.freeze(out);
}
