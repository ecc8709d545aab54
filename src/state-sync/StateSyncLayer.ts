import { resolveInvalidation } from './CausalEngine.js';
import { decorateDescription } from './DescriptionDecorator.js';
import { META } from './metaKeys.js';
import { PolicyEngine } from './PolicyEngine.js';
import { decorateResult } from './ResponseDecorator.js';
import type { CacheDirective, InlineSyncDeclaration, ResolvedPolicy, StateSyncConfig } from './types.js';

interface ToolLike {
  name: string;
  description?: string;
  _meta?: Record<string, unknown>;
}

interface ResultLike {
  content: unknown[];
  isError?: boolean;
  _meta?: Record<string, unknown>;
  [key: string]: unknown;
}

/**
 * Orchestrates State Sync for one attachment: decorates `tools/list` descriptions with cache directives
 * and prepends causal invalidation signals to successful results.
 *
 * Precedence for a tool with both an inline declaration and a registry policy: per field, the inline
 * declaration (`.cached()`, `.stale()`, `.invalidates()`) wins; the first matching policy fills the fields
 * the tool left undefined; `defaults.cacheControl` applies only when neither gives a directive.
 * @see docs/state-sync.md
 */
export class StateSyncLayer {
  readonly #engine: PolicyEngine | undefined;
  readonly #config: StateSyncConfig | undefined;
  readonly #inline: ReadonlyMap<string, InlineSyncDeclaration>;
  readonly #resolved = new Map<string, ResolvedPolicy | null>();
  readonly #decorated = new WeakMap<object, ToolLike>();
  readonly #now: () => number;

  constructor(config?: StateSyncConfig, inline: ReadonlyMap<string, InlineSyncDeclaration> = new Map(), options: { now?: () => number } = {}) {
    this.#config = config;
    this.#engine = config === undefined ? undefined : new PolicyEngine(config.policies, config.defaults);
    this.#inline = inline;
    this.#now = options.now ?? Date.now;
  }

  /** False when nothing is configured: callers skip the layer entirely (zero overhead). */
  get hasAnything(): boolean {
    return this.#engine !== undefined || this.#inline.size > 0;
  }

  /** The combined policy of a tool (inline declaration over registry policy over defaults), or `null`. */
  resolve(name: string): ResolvedPolicy | null {
    const hit = this.#resolved.get(name);
    if (hit !== undefined || this.#resolved.has(name)) return hit ?? null;
    const inline = this.#inline.get(name);
    const policy = this.#engine?.resolve(name) ?? null;
    let out: ResolvedPolicy | null;
    if (inline === undefined) out = policy;
    else {
      const merged: { cacheControl?: CacheDirective; invalidates?: readonly string[] } = {};
      const directive = inline.cacheControl ?? policy?.cacheControl;
      const invalidates = inline.invalidates ?? policy?.invalidates;
      if (directive !== undefined) merged.cacheControl = directive;
      if (invalidates !== undefined) merged.invalidates = Object.freeze([...invalidates]);
      out = Object.freeze(merged);
    }
    if (this.#resolved.size < 4096) this.#resolved.set(name, out);
    return out;
  }

  /** Tools with ` [Cache-Control: x]` appended and `_meta['fusion/cacheControl']`; each tool decorated once. */
  decorateTools<T extends ToolLike>(tools: readonly T[]): T[] {
    return tools.map((tool) => {
      const cached = this.#decorated.get(tool);
      if (cached !== undefined) return cached as T;
      const directive = this.resolve(tool.name)?.cacheControl;
      const out: T = directive === undefined ? tool : { ...tool, description: decorateDescription(tool.description, directive), _meta: { ...tool._meta, [META.cacheControl]: directive } };
      this.#decorated.set(tool, out);
      return out;
    });
  }

  /** Prepends the invalidation signal to a successful result of `name` and notifies observers. */
  decorateResult<R extends ResultLike>(name: string, result: R): R {
    const patterns = resolveInvalidation(this.resolve(name), result);
    if (patterns === null) return result;
    const timestamp = new Date(this.#now()).toISOString();
    this.#observe(name, patterns, timestamp);
    return decorateResult(result, patterns, name, timestamp);
  }

  #observe(causedBy: string, patterns: readonly string[], timestamp: string): void {
    const { onInvalidation, notificationSink } = this.#config ?? {};
    if (onInvalidation !== undefined) {
      try {
        onInvalidation({ causedBy, patterns, timestamp });
      } catch {
        // Observers must never break a call.
      }
    }
    if (notificationSink !== undefined) {
      for (const pattern of patterns) {
        try {
          const pending = notificationSink({ method: 'notifications/resources/updated', params: { uri: `fusion://stale/${pattern}` } });
          if (pending !== undefined) void Promise.resolve(pending).catch(() => {});
        } catch {
          // Fire-and-forget: a failing sink must not break the call.
        }
      }
    }
  }
}
