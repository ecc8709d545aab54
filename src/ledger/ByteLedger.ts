import { systemClock, type Clock } from '../_internal/clock.js';
import { Sweeper } from '../_internal/Sweeper.js';
import { refusalText } from './ledgerTexts.js';
import {
  HELD_KINDS,
  type HeldByKind,
  type HeldBytesLimits,
  type HeldKind,
  type Holder,
  type LedgerBudget,
  type LedgerRefusal,
  SERVER_HOLDER,
} from './types.js';

/** {@link HeldBytesLimits} with every default filled in. */
export type ResolvedHeldBytesLimits = Required<HeldBytesLimits>;

/** The defaults: sized so that a server at a 256 MB heap survives every client holding all it may. */
export const DEFAULT_HELD_BYTES: ResolvedHeldBytesLimits = Object.freeze({
  perPrincipal: 8 * 1024 * 1024,
  perPeer: 12 * 1024 * 1024,
  total: 64 * 1024 * 1024,
  retryAfterSeconds: 5,
});

/**
 * Bytes held on a client's behalf, taken from a {@link ByteLedger}: grow or shrink it as the held data
 * changes, release it when the data is gone (idempotent).
 */
export interface Hold {
  readonly kind: HeldKind;
  readonly holder: Holder;
  /** Bytes counted now (0 once released). */
  readonly bytes: number;
  readonly released: boolean;
  /** Counts `bytes` instead of what was counted: a growth past a budget is refused and changes nothing. */
  resize(bytes: number): LedgerRefusal | undefined;
  /** Stops counting it. */
  release(): void;
  /** From now on the hold ends on its own at `expiresAt` (the holding store renewed its TTL). */
  renew(expiresAt: number): void;
}

/** Options of one hold. */
export interface HoldOptions {
  /** When the holding store drops the data on its own (a TTL it does not report): the hold ends then. */
  readonly expiresAt?: number;
}

interface Account {
  total: number;
  readonly byKind: number[];
}

const KIND_INDEX = new Map<HeldKind, number>(HELD_KINDS.map((kind, i) => [kind, i]));

/**
 * The one accountant of held bytes: every store that keeps bytes a client sent or made the server produce
 * (bodies being read, listen requests, stored events, tasks, console events, session and handle data, request
 * state, queued log output) takes a {@link Hold} here first. A hold that would take its principal, its
 * network peer or the process past a budget is refused before anything is kept, with one refusal shape:
 * `429` (principal, peer) or `503` (total), `Retry-After`, and a text that says what to do. O(1) per hold.
 * @see docs/security.md#the-ledger
 */
export class ByteLedger {
  readonly limits: ResolvedHeldBytesLimits;
  readonly #principals = new Map<string, Account>();
  readonly #peers = new Map<string, Account>();
  readonly #all: Account = { total: 0, byKind: HELD_KINDS.map(() => 0) };
  readonly #expiring = new Set<LedgerHold>();
  readonly #clock: Clock;
  readonly #sweeper: Sweeper;

  constructor(limits: HeldBytesLimits = {}, clock: Clock = systemClock) {
    this.limits = resolveHeldBytes(limits);
    this.#clock = clock;
    this.#sweeper = new Sweeper(() => this.sweep(), 30_000, clock);
  }

  /** The ledger's clock (epoch milliseconds): what `expiresAt` is measured on. */
  now(): number {
    return this.#clock.now();
  }

  /** Bytes held now in total. */
  get bytes(): number {
    return this.#all.total;
  }

  /** Bytes held now for `principal` (all kinds, or one). */
  principalBytes(principal: string, kind?: HeldKind): number {
    return read(this.#principals.get(principal), kind);
  }

  /** Bytes held now for network peer `peer` (all kinds, or one). */
  peerBytes(peer: string, kind?: HeldKind): number {
    return read(this.#peers.get(peer), kind);
  }

  /** Bytes held now per kind, for everyone. */
  byKind(): HeldByKind {
    return Object.fromEntries(HELD_KINDS.map((kind, i) => [kind, this.#all.byKind[i]!])) as HeldByKind;
  }

  /** The refusal holding `bytes` more of `kind` for `holder` would get now; `undefined` when it fits. */
  check(kind: HeldKind, holder: Holder, bytes: number): LedgerRefusal | undefined {
    if (bytes <= 0) return undefined;
    const { perPrincipal, perPeer, total } = this.limits;
    if (!isServer(holder)) {
      const mine = this.principalBytes(holder.principal);
      if (mine + bytes > perPrincipal) return this.#refusal(kind, 'principal', bytes, mine, perPrincipal);
      if (holder.peer !== undefined) {
        const peer = this.peerBytes(holder.peer);
        if (peer + bytes > perPeer) return this.#refusal(kind, 'peer', bytes, peer, perPeer);
      }
    }
    if (this.#all.total + bytes > total) return this.#refusal(kind, 'total', bytes, this.#all.total, total);
    return undefined;
  }

  /** Holds `bytes` of `kind` for `holder`, or answers the refusal and holds nothing. */
  take(kind: HeldKind, holder: Holder, bytes: number, options: HoldOptions = {}): Hold | LedgerRefusal {
    const size = checkedSize(bytes);
    const refused = this.check(kind, holder, size);
    if (refused !== undefined) return refused;
    const hold = new LedgerHold(this, kind, holder);
    this.count(hold, size);
    if (options.expiresAt !== undefined) hold.renew(options.expiresAt);
    return hold;
  }

  /** Ends every hold whose `expiresAt` has passed (the ledger's sweep runs it every 30 s while any expire). */
  sweep(): void {
    const now = this.#clock.now();
    for (const hold of this.#expiring) if (hold.expiresAt! <= now) hold.release();
    if (this.#expiring.size === 0) this.#sweeper.disarm();
  }

  /** @internal Moves `hold`'s count to `bytes` (the hold checked the budgets). */
  count(hold: LedgerHold, bytes: number): void {
    const delta = bytes - hold.bytes;
    if (delta === 0) return;
    const k = KIND_INDEX.get(hold.kind)!;
    add(this.#all, k, delta);
    if (!isServer(hold.holder)) {
      addTo(this.#principals, hold.holder.principal, k, delta);
      if (hold.holder.peer !== undefined) addTo(this.#peers, hold.holder.peer, k, delta);
    }
    hold.counted = bytes;
  }

  /** @internal The hold expires now: swept. */
  expire(hold: LedgerHold): void {
    this.#expiring.add(hold);
    this.#sweeper.arm();
  }

  /** @internal */
  forget(hold: LedgerHold): void {
    this.#expiring.delete(hold);
  }

  #refusal(kind: HeldKind, budget: LedgerBudget, bytes: number, held: number, max: number): LedgerRefusal {
    const retryAfterSeconds = this.limits.retryAfterSeconds;
    const status = budget === 'total' ? 503 : 429;
    const message = refusalText(kind, budget, { bytes, held, max }, retryAfterSeconds);
    return { kind, budget, bytes, held, max, status, retryAfterSeconds, message };
  }
}

class LedgerHold implements Hold {
  counted = 0;
  #released = false;
  #expiresAt: number | undefined;

  constructor(
    readonly ledger: ByteLedger,
    readonly kind: HeldKind,
    readonly holder: Holder,
  ) {}

  get expiresAt(): number | undefined {
    return this.#expiresAt;
  }

  get bytes(): number {
    return this.counted;
  }

  get released(): boolean {
    return this.#released;
  }

  resize(bytes: number): LedgerRefusal | undefined {
    const size = checkedSize(bytes);
    if (this.#released) throw new Error('A released ledger hold cannot be resized: take a new one.');
    const refused = size > this.counted ? this.ledger.check(this.kind, this.holder, size - this.counted) : undefined;
    if (refused === undefined) this.ledger.count(this, size);
    return refused === undefined ? undefined : { ...refused, bytes: size };
  }

  renew(expiresAt: number): void {
    if (this.#released) return;
    this.#expiresAt = expiresAt;
    this.ledger.expire(this);
  }

  release(): void {
    if (this.#released) return;
    this.ledger.count(this, 0);
    this.#released = true;
    this.ledger.forget(this);
  }
}

/** Whether `value` is a refusal (a `take` that held nothing). */
export function isRefusal(value: Hold | LedgerRefusal | undefined): value is LedgerRefusal {
  return value !== undefined && 'budget' in value;
}

/** Fills in the defaults and checks each is a positive integer. */
export function resolveHeldBytes(limits: HeldBytesLimits = {}): ResolvedHeldBytesLimits {
  const out = { ...DEFAULT_HELD_BYTES };
  for (const [name, value] of Object.entries(limits)) {
    if (value === undefined) continue;
    if (!(Number.isInteger(value) && (value as number) > 0))
      throw new RangeError(`heldBytes.${name} must be a positive integer (got ${String(value)}).`);
    (out as Record<string, number>)[name] = value as number;
  }
  return out;
}

function checkedSize(bytes: number): number {
  if (!(Number.isFinite(bytes) && bytes >= 0))
    throw new RangeError(`A ledger hold must be a non-negative number of bytes (got ${String(bytes)}).`);
  return Math.ceil(bytes);
}

function read(account: Account | undefined, kind: HeldKind | undefined): number {
  if (account === undefined) return 0;
  return kind === undefined ? account.total : account.byKind[KIND_INDEX.get(kind)!]!;
}

function add(account: Account, k: number, delta: number): void {
  account.total += delta;
  account.byKind[k] = account.byKind[k]! + delta;
}

function isServer(holder: Holder): boolean {
  return holder.principal === SERVER_HOLDER.principal && holder.peer === undefined;
}

function addTo(map: Map<string, Account>, key: string, k: number, delta: number): void {
  let account = map.get(key);
  if (account === undefined) map.set(key, (account = { total: 0, byKind: HELD_KINDS.map(() => 0) }));
  add(account, k, delta);
  if (account.total === 0) map.delete(key);
}
