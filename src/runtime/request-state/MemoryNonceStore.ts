import { systemClock } from '../../_internal/clock.js';
import { JsonRpcCode, WireError } from '../../errors/WireError.js';
import type { NonceStore } from './NonceStore.js';

/** Options of {@link MemoryNonceStore} (the attach options `requestState.maxUsed` and `maxUsedPerPrincipal`). */
export interface MemoryNonceStoreOptions {
  /** Most nonces remembered until they expire (100,000); past it, further ones are refused until some expire. */
  maxUsed?: number;
  /** Most of those one caller may hold (1,000), so that one caller filling the set cannot refuse everyone else. */
  maxUsedPerPrincipal?: number;
  /** The clock of expiries (default `Date.now`). */
  now?: () => number;
}

/**
 * The default {@link NonceStore}: used nonces in this process until they expire, budgeted in total and per caller.
 * Instances that share a `requestState` key but each keep their own store accept a state once each: share a
 * store (`RedisNonceStore`) when a flow's rounds may reach different instances.
 */
export class MemoryNonceStore implements NonceStore {
  readonly #maxUsed: number;
  readonly #maxUsedPerPrincipal: number;
  readonly #now: () => number;
  /** Nonce → expiry (ms) and owner of every nonce claimed; roughly in expiry order. */
  readonly #used = new Map<string, { expiresAt: number; owner: string }>();
  /** Owner → how many of the used nonces are its own. */
  readonly #usedBy = new Map<string, number>();

  constructor(options: MemoryNonceStoreOptions = {}) {
    this.#maxUsed = positive(options.maxUsed, 100_000, 'maxUsed');
    this.#maxUsedPerPrincipal = positive(options.maxUsedPerPrincipal, 1_000, 'maxUsedPerPrincipal');
    this.#now = options.now ?? systemClock.now;
  }

  /** Nonces claimed and not yet expired. */
  get size(): number {
    return this.#used.size;
  }

  async claim(nonce: string, expiresAt: number, owner: string): Promise<boolean> {
    this.#forgetExpired(this.#now());
    if (this.#used.has(nonce)) return false;
    const mine = this.#usedBy.get(owner) ?? 0;
    if (mine >= this.#maxUsedPerPrincipal) {
      throw new WireError(
        JsonRpcCode.InvalidParams,
        `Too many multi-round requests in progress for this caller (${this.#maxUsedPerPrincipal}); requestState was not accepted. Finish or abandon some of them, or call again without requestState and inputResponses in a few minutes.`,
        { reason: 'request_state_budget', scope: 'principal', max: this.#maxUsedPerPrincipal },
      );
    }
    if (this.#used.size >= this.#maxUsed) {
      throw new WireError(
        JsonRpcCode.InvalidParams,
        `Too many multi-round requests in progress on this server (${this.#maxUsed}); requestState was not accepted. Call again without requestState and inputResponses a little later.`,
        { reason: 'request_state_budget', scope: 'global', max: this.#maxUsed },
      );
    }
    this.#used.set(nonce, { expiresAt, owner });
    this.#usedBy.set(owner, mine + 1);
    return true;
  }

  #forgetExpired(now: number): void {
    for (const [nonce, used] of this.#used) {
      if (used.expiresAt > now) break;
      this.#used.delete(nonce);
      const left = (this.#usedBy.get(used.owner) ?? 1) - 1;
      if (left === 0) this.#usedBy.delete(used.owner);
      else this.#usedBy.set(used.owner, left);
    }
  }
}

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!(Number.isInteger(value) && value > 0))
    throw new RangeError(`requestState.${name} must be a positive integer (got ${String(value)}).`);
  return value;
}
