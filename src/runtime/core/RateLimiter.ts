import { nowOf, type Clock } from '../../_internal/clock.js';
import { errorResult } from '../../protocol/normalizeResult.js';
import type { FusionTool, ToolResponse } from '../../protocol/types.js';
import type { RequestContext } from '../../surface/types.js';
import { peerFallback, requestPrincipal } from '../../principal/requestPrincipal.js';
import { principalOf } from '../../principal/principalOf.js';
import type { Principal } from '../../principal/types.js';
import { checkRateLimit } from '../../limits/checkRateLimit.js';
import { MemoryRateLimitStore } from '../../limits/MemoryRateLimitStore.js';
import type { RateLimit, RateLimitRefusal, RateLimitStore } from '../../limits/types.js';

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
  readonly clock?: Clock | undefined;
}

/**
 * The rate-limit stage of `tools/call`: counts each call against the server-wide limit and the tool's own,
 * per principal (`requestPrincipal`: the verified user or client, else the network peer over HTTP — so a new
 * session or a new address in the same /64 resets nothing — or the session or process over stdio), and
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
    const server =
      options.rateLimit === undefined ? undefined : checkRateLimit(options.rateLimit, 'The attach option rateLimit');
    if (server === undefined && !tools.some((t) => t.rateLimit !== undefined)) return undefined;
    const owned = options.rateLimitStore === undefined;
    return new RateLimiter(
      server,
      options.rateLimitStore ??
        new MemoryRateLimitStore(options.clock === undefined ? {} : { now: nowOf(options.clock) }),
      owned,
    );
  }

  /** Stops the sweep timer of the in-memory store it made (one the options passed is the caller's to close). */
  dispose(): void {
    if (this.#store instanceof MemoryRateLimitStore && this.#owned) this.#store.dispose();
  }

  /** True when a limit counts calls of `tool` (the server-wide one, or the tool's own). */
  applies(tool: FusionTool): boolean {
    return this.#server !== undefined || tool.rateLimit !== undefined;
  }

  /** True when the server-wide limit is set (prompts, resources and completion count against it too). */
  get serverWide(): boolean {
    return this.#server !== undefined;
  }

  /** Counts one call of `tool`; resolves to the refusal to return, or `undefined` to go on. Never rejects. */
  async hit(tool: FusionTool, rctx: RequestContext): Promise<ToolResponse | undefined> {
    const principal = requestPrincipal(rctx);
    const what = `Tool "${tool.name}"`;
    let refusal: RateLimitRefusal | undefined;
    try {
      if (this.#server !== undefined) refusal = await this.#count(`server:${principal.key}`, this.#server, 'server');
      if (refusal === undefined && tool.rateLimit !== undefined)
        refusal = await this.#count(`tool:${tool.name}:${principal.key}`, tool.rateLimit, 'tool');
    } catch (error) {
      return unavailable(what, 'call', error);
    }
    if (refusal === undefined) return undefined;
    const calls = refusal.limit.max === 1 ? 'call' : 'calls';
    return refused(
      what,
      refusal.scope === 'server' ? `tool ${calls}` : `${calls} of "${tool.name}"`,
      refusal,
      whoOf(principal, rctx),
    );
  }

  /**
   * Counts one `prompts/get`, `resources/read` or `completion/complete` (`what`: `Prompt "review"`) against
   * the server-wide limit, in a count apart from tool calls; the refusal as for a tool, or `undefined`.
   */
  async hitRequest(what: string, rctx: RequestContext): Promise<ToolResponse | undefined> {
    const principal = requestPrincipal(rctx);
    let refusal: RateLimitRefusal | undefined;
    try {
      refusal = await this.#count(`content:${principal.key}`, this.#server!, 'server');
    } catch (error) {
      return unavailable(what, 'request', error);
    }
    if (refusal === undefined) return undefined;
    return refused(what, refusal.limit.max === 1 ? 'request' : 'requests', refusal, whoOf(principal, rctx));
  }

  async #count(key: string, limit: RateLimit, scope: 'tool' | 'server'): Promise<RateLimitRefusal | undefined> {
    const { count, resetInMs } = await this.#store.hit(key, limit.windowMs);
    return count > limit.max ? { limit, scope, retryAfterMs: Math.max(1, Math.ceil(resetInMs)) } : undefined;
  }
}

function whoOf(principal: Principal, rctx: RequestContext): string {
  if (principal.kind === 'anonymous') {
    if (principal.key.startsWith(ANONYMOUS_PEER)) return 'this network address, every session from it together';
    return rctx.sessionKey === undefined ? 'this caller' : 'this session';
  }
  return principal.kind === 'user' ? 'this user' : 'this client';
}

/** The start of the key of an anonymous principal keyed by its network peer. */
const ANONYMOUS_PEER = principalOf(undefined, peerFallback('')).key.slice(0, -1);

/** The refusal of `what` (`Tool "x"`) once `counted` (`tool calls`) reached the limit for `who`. */
function refused(what: string, counted: string, refusal: RateLimitRefusal, who: string): ToolResponse {
  const { limit, scope, retryAfterMs } = refusal;
  return errorResult(
    `${what} was not run: rate limit reached (${limit.max} ${counted} per ${seconds(limit.windowMs)} for ${who}). Retry after ${seconds(retryAfterMs)}; nothing was done.`,
    {
      [RETRY_AFTER_META]: retryAfterMs,
      [RATE_LIMIT_META]: { max: limit.max, windowMs: limit.windowMs, scope, retryAfterMs },
    },
  );
}

function unavailable(what: string, counted: 'call' | 'request', error: unknown): ToolResponse {
  const reason = error instanceof Error ? error.message : String(error);
  return errorResult(
    `${what} was not run: the rate-limit store is unavailable (${reason}), so the ${counted} could not be counted. Nothing was done; try again in a few seconds.`,
    { [RETRY_AFTER_META]: 1_000 },
  );
}

function seconds(ms: number): string {
  return ms < 1_000 ? `${ms} ms` : `${Math.ceil(ms / 1_000)} s`;
}
