import { systemClock } from '../../_internal/clock.js';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { JsonRpcCode, WireError } from '../../errors/WireError.js';
import type { ByteLedger } from '../../ledger/ByteLedger.js';
import { refusalError } from '../../ledger/refusalError.js';
import type { Holder } from '../../ledger/types.js';
import { MemoryNonceStore } from './MemoryNonceStore.js';
import type { NonceStore } from './NonceStore.js';

/** Options of the integrity protection of `requestState` (attach option `requestState`). */
export interface RequestStateOptions {
  /**
   * The HMAC-SHA256 key (at least 32 bytes). Give every instance that may receive a retried request the
   * same key. Default: a random key per process, which works when one process serves every round of a flow
   * (a single instance, or the legacy era, whose rounds run inside one request).
   */
  key?: string | Uint8Array;
  /** How long a sealed state stays valid, in seconds (600). */
  ttlSeconds?: number;
  /**
   * Most sealed states remembered as used until they expire (100,000): a state is accepted once, and past
   * this many unexpired used states further ones are refused until some expire.
   */
  maxUsed?: number;
  /**
   * Most of those one principal may hold (1,000): a principal past it is refused until its own states
   * expire, so that one caller filling the set cannot refuse everyone else's multi-round requests.
   */
  maxUsedPerPrincipal?: number;
  /**
   * Where used states are remembered (default: this process's memory, budgeted by `maxUsed` and
   * `maxUsedPerPrincipal`). Give every instance the same shared store (`new RedisNonceStore({ client })`) and
   * the same `key`, and a state is accepted once across all of them.
   */
  nonces?: NonceStore;
}

/** What one sealed state carries: the target, the caller's tag, the expiry and the handler's payload. */
interface Envelope {
  readonly t: string;
  readonly c: string;
  readonly exp: number;
  /** 96 random bits: two seals of the same payload never look alike, so each is accepted once on its own. */
  readonly n: string;
  readonly p?: unknown;
}

const PREFIX = 'fs1.';

/**
 * Seals and opens the `requestState` of multi-round-trip calls: `fs1.<body>.<mac>`, an HMAC-SHA256 over a
 * JSON body that binds the handler's payload to the request it was minted for (method and tool, prompt or
 * resource), to the caller (a keyed tag of its principal key — issuer and `sub`, client id, or the anonymous
 * session or peer — never the raw id) and to an expiry. A client can read the payload (it is signed, not
 * encrypted) but can neither forge nor alter it, replay it on another target or as another principal, use it
 * twice, nor use it after it expired. Opening fails with one fixed `-32602` answer whatever the reason.
 *
 * Once-only: the MAC of every opened state is claimed in a {@link NonceStore} until the state expires. The
 * default store is per process (instances sharing a key would each accept a state once); a shared store
 * (`RedisNonceStore`, one `SET NX` per opened state) makes it once across every instance.
 */
export class RequestStateSeal {
  #key: Buffer | undefined;
  readonly #ttlSeconds: number;
  readonly #nonces: NonceStore;
  #ledger: ByteLedger | undefined;

  readonly #now: () => number;

  /** `now`: the clock of expiries (the attach option `now`; default `Date.now`). */
  constructor(options: RequestStateOptions = {}, now: () => number = systemClock.now) {
    this.#now = now;
    // Without a configured key, a random one is drawn on first use: web runtimes such as Workers refuse
    // random values while a module is being loaded, and an app may be created then.
    const key =
      options.key === undefined
        ? undefined
        : Buffer.from(typeof options.key === 'string' ? Buffer.from(options.key, 'utf8') : options.key);
    if (key !== undefined && key.byteLength < 32)
      throw new RangeError(
        `requestState.key must be at least 32 bytes long (got ${key.byteLength}); use a random secret such as crypto.randomBytes(32).`,
      );
    const ttl = options.ttlSeconds ?? 600;
    if (!(Number.isFinite(ttl) && ttl > 0))
      throw new RangeError(
        `requestState.ttlSeconds must be a positive number of seconds (got ${String(options.ttlSeconds)}).`,
      );
    this.#key = key;
    this.#ttlSeconds = ttl;
    if (options.nonces !== undefined && (options.maxUsed !== undefined || options.maxUsedPerPrincipal !== undefined)) {
      throw new RangeError(
        'requestState.maxUsed and maxUsedPerPrincipal budget the default memory store; with requestState.nonces set, drop them (the store you give keeps its own limits).',
      );
    }
    this.#nonces = options.nonces ?? new MemoryNonceStore({ ...options, now });
  }

  /**
   * Holds each accepted state's remembered nonce on `ledger` (the runtime's; kind `requestState`) until it
   * expires: a caller whose held bytes are full is refused with the ledger's error before its state is claimed.
   * @see docs/security.md#the-ledger
   */
  useLedger(ledger: ByteLedger): void {
    this.#ledger = ledger;
  }

  /** Sealed states accepted and not yet expired, with the default memory store (for tests and metrics); 0 with another store. */
  get usedCount(): number {
    return this.#nonces instanceof MemoryNonceStore ? this.#nonces.size : 0;
  }

  /** Seals `payload` (JSON; `undefined` is sealed as `null`) for `target` (e.g. `tools/call:checkout`) and the principal `caller` (its key). */
  async seal(payload: unknown, target: string, caller: string): Promise<string> {
    const envelope: Envelope = {
      t: target,
      c: this.#callerTag(caller),
      exp: Math.floor(this.#now() / 1000) + this.#ttlSeconds,
      n: randomBytes(12).toString('base64url'),
      p: payload ?? null,
    };
    const body = Buffer.from(JSON.stringify(envelope), 'utf8').toString('base64url');
    return `${PREFIX}${body}.${this.#mac(body).toString('base64url')}`;
  }

  /**
   * The payload of a state this seal minted for `target` and the principal `caller`, the first time it is
   * presented; a {@link WireError} -32602 otherwise.
   */
  async open(state: string, target: string, caller: string, holder?: Holder): Promise<unknown> {
    const dot = state.lastIndexOf('.');
    if (!state.startsWith(PREFIX) || dot <= PREFIX.length) throw invalid();
    const body = state.slice(PREFIX.length, dot);
    const given = Buffer.from(state.slice(dot + 1), 'base64url');
    const expected = this.#mac(body);
    if (given.byteLength !== expected.byteLength || !timingSafeEqual(given, expected)) throw invalid();
    let envelope: Envelope;
    try {
      envelope = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Envelope;
    } catch {
      throw invalid();
    }
    const tag = this.#callerTag(caller);
    if (typeof envelope !== 'object' || envelope === null || envelope.t !== target || envelope.c !== tag)
      throw invalid();
    const now = Math.floor(this.#now() / 1000);
    if (typeof envelope.exp !== 'number' || envelope.exp < now) throw invalid();
    // What the nonce store remembers: the MAC, the caller's tag and the expiry.
    const held = given.byteLength * 2 + tag.length + 64;
    const refused = holder === undefined ? undefined : this.#ledger?.check('requestState', holder, held);
    if (refused !== undefined) throw refusalError(refused);
    let first: boolean;
    try {
      // Valid through the whole second `exp`: remembered until the next one starts.
      first = await this.#nonces.claim(given.toString('base64url'), (envelope.exp + 1) * 1000, tag);
    } catch (error) {
      if (error instanceof WireError) throw error;
      throw new WireError(
        JsonRpcCode.InternalError,
        `requestState could not be checked as unused (${error instanceof Error ? error.message : String(error)}); nothing ran. Retry the same request shortly.`,
        { reason: 'request_state_store', retryable: true },
      );
    }
    if (!first) throw invalid();
    // Checked before the claim (a race lost since leaves this one nonce uncounted): held until it expires.
    if (holder !== undefined)
      this.#ledger?.take('requestState', holder, held, { expiresAt: (envelope.exp + 1) * 1000 });
    return envelope.p;
  }

  #mac(body: string): Buffer {
    return createHmac('sha256', this.#secret()).update(`${PREFIX}${body}`).digest();
  }

  #secret(): Buffer {
    this.#key ??= randomBytes(32);
    return this.#key;
  }

  #callerTag(caller: string): string {
    return createHmac('sha256', this.#secret())
      .update(`caller:${caller}`)
      .digest()
      .subarray(0, 16)
      .toString('base64url');
  }
}

function invalid(): WireError {
  return new WireError(
    JsonRpcCode.InvalidParams,
    'Invalid or expired requestState: it was altered, belongs to another request or caller, was already used, or is too old. Call again without requestState and inputResponses to start over.',
    { reason: 'invalid_request_state' },
  );
}
