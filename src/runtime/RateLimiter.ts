import { errorResult } from '../protocol/normalizeResult.js';
import type { FusionTool, ToolResponse } from '../protocol/types.js';
import type { RequestScope } from '../surface/types.js';
import { requestPrincipal } from '../principal/requestPrincipal.js';
import { checkRateLimit } from '../limits/checkRateLimit.js';
import { MemoryRateLimitStore } from '../limits/MemoryRateLimitStore.js';
import type { RateLimit, RateLimitRefusal, RateLimitStore } from '../limits/types.js';

/** `_meta` key of a rate-limit refusal: `{ max, windowMs, scope, retryAfterMs }`. */
export const RATE_LIMIT_META = 'fusion/rateLimit';
/** `_meta` key carrying, on its own, how many milliseconds to wait before calling again. */
export const RETRY_AFTER_META = 'fusion/retryAfterMs';

/** Options the rate-limit stage reads. */
export interface RateLimitOptions {
  /** Tool calls allowed per principal per window, over every tool. */
  readonly rateLimit?: RateLimit | undefined;
  /** Where counts live (memory by default; `RedisRateLimitStore` to share them between instances). */
  readonly rateLimitStore?: RateLimitStore | undefined;
  readonly now?: (() => number) | undefined;
}

/**
 * The rate-limit stage of `tools/call`: counts each call against the server-wide limit and the tool's own,
 * per principal (`requestPrincipal`: the verified user or client, else the legacy session, the modern peer
 * address or the stdio process), and
 * refuses with an `isError` result saying when to retry (`_meta["fusion/retryAfterMs"]`).
 * @see docs/security.md#rate-limits
 */
export class RateLimiter {
  readonly #server: RateLimit | undefined;
  readonly #store: RateLimitStore;

  readonly #owned: boolean;

  private constructor(server: RateLimit | undefined, store: RateLimitStore, owned: boolean) {
    this.#server = server;
    this.#store = store;
    this.#owned = owned;
  }

  /** The stage for a surface, or `undefined` when neither the options nor any tool set a limit. */
  static for(tools: readonly FusionTool[], options: RateLimitOptions): RateLimiter | undefined {
    const server = options.rateLimit === undefined ? undefined : checkRateLimit(options.rateLimit, 'The attach option rateLimit');
    if (server === undefined && !tools.some((t) => t.rateLimit !== undefined)) return undefined;
    const owned = options.rateLimitStore === undefined;
    return new RateLimiter(server, options.rateLimitStore ?? new MemoryRateLimitStore(options.now === undefined ? {} : { now: options.now }), owned);
  }

  /** Stops the sweep timer of the in-memory store it made (one the options passed is the caller's to close). */
  dispose(): void {
    if (this.#store instanceof MemoryRateLimitStore && this.#owned) this.#store.dispose();
  }

  /** True when a limit counts calls of `tool` (the server-wide one, or the tool's own). */
  applies(tool: FusionTool): boolean {
    return this.#server !== undefined || tool.rateLimit !== undefined;
  }

  /** Counts one call of `tool`; resolves to the refusal to return, or `undefined` to go on. Never rejects. */
  async hit(tool: FusionTool, scope: RequestScope): Promise<ToolResponse | undefined> {
    const principal = requestPrincipal(scope);
    let refusal: RateLimitRefusal | undefined;
    try {
      if (this.#server !== undefined) refusal = await this.#count(`server:${principal.key}`, this.#server, 'server');
      if (refusal === undefined && tool.rateLimit !== undefined) refusal = await this.#count(`tool:${tool.name}:${principal.key}`, tool.rateLimit, 'tool');
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return errorResult(`Tool "${tool.name}" was not run: the rate-limit store is unavailable (${reason}), so the call could not be counted. Nothing was done; try again in a few seconds.`, { [RETRY_AFTER_META]: 1_000 });
    }
    if (refusal === undefined) return undefined;
    const { limit, scope: which, retryAfterMs } = refusal;
    const who = principal.kind === 'anonymous' ? (scope.stateKey === undefined ? 'this caller' : 'this session') : principal.kind === 'user' ? 'this user' : 'this client';
    const calls = limit.max === 1 ? 'call' : 'calls';
    const what = which === 'server' ? `tool ${calls}` : `${calls} of "${tool.name}"`;
    return errorResult(
      `Tool "${tool.name}" was not run: rate limit reached (${limit.max} ${what} per ${seconds(limit.windowMs)} for ${who}). Retry after ${seconds(retryAfterMs)}; nothing was done.`,
      { [RETRY_AFTER_META]: retryAfterMs, [RATE_LIMIT_META]: { max: limit.max, windowMs: limit.windowMs, scope: which, retryAfterMs } },
    );
  }

  async #count(key: string, limit: RateLimit, scope: 'tool' | 'server'): Promise<RateLimitRefusal | undefined> {
    const { count, resetInMs } = await this.#store.hit(key, limit.windowMs);
    return count > limit.max ? { limit, scope, retryAfterMs: Math.max(1, Math.ceil(resetInMs)) } : undefined;
  }
}

function seconds(ms: number): string {
  return ms < 1_000 ? `${ms} ms` : `${Math.ceil(ms / 1_000)} s`;
}
