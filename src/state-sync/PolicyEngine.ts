import { freezePolicy } from './freezePolicy.js';
import { compileGlob, type CompiledGlob } from './compileGlob.js';
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
  readonly #rules: readonly Rule[];
  /** Rules whose first segment is a literal, by that segment, in declaration order. */
  readonly #byHead = new Map<string, Rule[]>();
  /** Rules whose first segment is `*` or `**` (they may match any name), in declaration order. */
  readonly #anyHead: Rule[] = [];
  readonly #fallback: ResolvedPolicy | null;
  readonly #cache = new Map<string, ResolvedPolicy | null>();

  constructor(policies: readonly SyncPolicy[], defaults?: { cacheControl?: CacheDirective }) {
    validatePolicies(policies, defaults);
    const fallback = defaults?.cacheControl;
    this.#rules = policies.map((p, order) => ({
      order,
      glob: compileGlob(p.match),
      resolved: freezePolicy(p.cacheControl ?? fallback, p.invalidates),
    }));
    for (const rule of this.#rules) {
      const head = rule.glob.firstLiteral;
      if (head === undefined) this.#anyHead.push(rule);
      else {
        const bucket = this.#byHead.get(head);
        if (bucket === undefined) this.#byHead.set(head, [rule]);
        else bucket.push(rule);
      }
    }
    this.#fallback = freezePolicy(fallback, undefined);
  }

  /**
   * The frozen policy of `name`, or `null` when nothing applies. The first time, it tests only the rules
   * that can match (those whose literal first segment is the name's, and those starting with a wildcard),
   * each with its compiled glob, in declaration order; O(1) after.
   */
  resolve(name: string): ResolvedPolicy | null {
    const hit = this.#cache.get(name);
    if (hit !== undefined) return hit;
    const rule = this.#firstMatch(name);
    const resolved = rule === undefined ? this.#fallback : rule.resolved;
    if (this.#cache.size >= MAX_CACHE_ENTRIES) this.#cache.clear();
    this.#cache.set(name, resolved);
    return resolved;
  }

  /** The first rule, in declaration order, among the name's bucket and the wildcard-headed rules. */
  #firstMatch(name: string): Rule | undefined {
    const dot = name.indexOf('.');
    const bucket = this.#byHead.get(dot === -1 ? name : name.slice(0, dot)) ?? NONE;
    const any = this.#anyHead;
    let i = 0;
    let j = 0;
    while (i < bucket.length || j < any.length) {
      const a = bucket[i];
      const b = any[j];
      const next = b === undefined || (a !== undefined && a.order < b.order) ? (i++, a!) : (j++, b);
      if (next.glob.test(name)) return next;
    }
    return undefined;
  }

  /** Names currently in the resolution cache (never above {@link MAX_CACHE_ENTRIES}); for tests and metrics. */
  get cacheSize(): number {
    return this.#cache.size;
  }
}

interface Rule {
  readonly order: number;
  readonly glob: CompiledGlob;
  readonly resolved: ResolvedPolicy | null;
}

const NONE: readonly Rule[] = [];
