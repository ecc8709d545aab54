import { isRefusal, type ByteLedger, type Hold } from '../ledger/ByteLedger.js';
import type { Holder, LedgerRefusal } from '../ledger/types.js';

/**
 * Whose budget a stream's stored events count against: the app's ledger and the stream's owner (the legacy
 * session's principal and peer, or the listen stream's). An {@link EventStore} given one charges what it keeps.
 */
export interface EventOwner {
  readonly ledger: ByteLedger;
  readonly holder: Holder;
}

interface Charge {
  readonly hold: Hold;
  /** Bytes of the stream's description counted in the hold. */
  meta: number;
}

/**
 * The ledger's holds of an event store's streams (kind `event`): one per stream this store wrote for an
 * owner, counting its stored events and its description. A write reserves its bytes first (refused: the
 * store does not keep the event); after it, the hold is set to what the stream keeps (trimmed by the
 * stream's caps). The hold ends with the stream: at the TTL each write renews (on the ledger's clock), or
 * when the store forgets or evicts it.
 * @see docs/security.md#the-ledger
 */
export class StreamHolds {
  readonly #charges = new Map<string, Charge>();
  #writes = 0;

  /**
   * Grows `stream`'s hold by `bytes` for `owner`, to end `ttlMs` from now (the ledger's clock), or answers the
   * ledger's refusal (nothing more held).
   */
  reserve(stream: string, owner: EventOwner | undefined, bytes: number, ttlMs: number): LedgerRefusal | undefined {
    if (owner === undefined) return undefined;
    if (++this.#writes % 256 === 0) this.#prune();
    const expiresAt = owner.ledger.now() + ttlMs;
    const charge = this.#live(stream);
    if (charge === undefined) {
      const hold = owner.ledger.take('event', owner.holder, Math.max(0, bytes), { expiresAt });
      if (isRefusal(hold)) return hold;
      this.#charges.set(stream, { hold, meta: 0 });
      return undefined;
    }
    const refused = bytes > 0 ? charge.hold.resize(charge.hold.bytes + bytes) : undefined;
    if (refused === undefined) charge.hold.renew(expiresAt);
    return refused;
  }

  /** Reserves room for `stream`'s description of `bytes` (replacing the one counted), or answers the refusal. */
  describe(stream: string, owner: EventOwner | undefined, bytes: number, ttlMs: number): LedgerRefusal | undefined {
    const before = this.#live(stream)?.meta ?? 0;
    const refused = this.reserve(stream, owner, bytes - before, ttlMs);
    const charge = this.#live(stream);
    if (refused === undefined && charge !== undefined) charge.meta = bytes;
    return refused;
  }

  /**
   * After a write or an eviction: `stream` keeps `events` bytes of events (beside its description). The hold
   * only shrinks here (a write reserved its growth first): never more than reserved.
   */
  settle(stream: string, events: number): void {
    const charge = this.#live(stream);
    if (charge === undefined) return;
    const kept = Math.min(charge.hold.bytes, events + charge.meta);
    if (kept < charge.hold.bytes) charge.hold.resize(kept);
  }

  /** A write that reserved `bytes` failed: they are held no more. */
  unreserve(stream: string, bytes: number): void {
    const charge = this.#live(stream);
    if (charge !== undefined) charge.hold.resize(Math.max(0, charge.hold.bytes - bytes));
  }

  /** The store forgot `stream` (expired, or every event evicted): its hold ends. */
  release(stream: string): void {
    this.#charges.get(stream)?.hold.release();
    this.#charges.delete(stream);
  }

  /** Bytes held for `stream` (0 when none). */
  bytesOf(stream: string): number {
    return this.#live(stream)?.hold.bytes ?? 0;
  }

  #live(stream: string): Charge | undefined {
    const charge = this.#charges.get(stream);
    if (charge?.hold.released !== true) return charge;
    this.#charges.delete(stream);
    return undefined;
  }

  /** Forgets the holds the ledger ended on its own (expired streams nobody writes again). */
  #prune(): void {
    for (const [stream, charge] of this.#charges) if (charge.hold.released) this.#charges.delete(stream);
  }
}
