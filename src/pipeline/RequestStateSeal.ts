import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { JsonRpcCode, WireError } from '../errors/WireError.js';

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
}

/** What one sealed state carries: the target, the caller's tag, the expiry and the handler's payload. */
interface Envelope {
  readonly t: string;
  readonly c: string;
  readonly exp: number;
  readonly p?: unknown;
}

const PREFIX = 'fs1.';

/**
 * Seals and opens the `requestState` of multi-round-trip calls: `fs1.<body>.<mac>`, an HMAC-SHA256 over a
 * JSON body that binds the handler's payload to the request it was minted for (method and tool, prompt or
 * resource), to the caller (a keyed tag of the auth principal, never the raw id) and to an expiry. A
 * client can read the payload (it is signed, not encrypted) but can neither forge nor alter it, replay it
 * on another target or as another caller, nor use it after it expired. Opening fails with one fixed
 * `-32602` answer whatever the reason.
 */
export class RequestStateSeal {
  #key: Buffer | undefined;
  readonly #ttlSeconds: number;

  constructor(options: RequestStateOptions = {}) {
    // Without a configured key, a random one is drawn on first use: web runtimes such as Workers refuse
    // random values while a module is being loaded, and an app may be created then.
    const key = options.key === undefined ? undefined : Buffer.from(typeof options.key === 'string' ? Buffer.from(options.key, 'utf8') : options.key);
    if (key !== undefined && key.byteLength < 32) throw new RangeError(`requestState.key must be at least 32 bytes long (got ${key.byteLength}); use a random secret such as crypto.randomBytes(32).`);
    const ttl = options.ttlSeconds ?? 600;
    if (!(Number.isFinite(ttl) && ttl > 0)) throw new RangeError(`requestState.ttlSeconds must be a positive number of seconds (got ${String(options.ttlSeconds)}).`);
    this.#key = key;
    this.#ttlSeconds = ttl;
  }

  /** Seals `payload` (JSON; `undefined` is sealed as `null`) for `target` (e.g. `tools/call:checkout`) and the caller of `ctx` (the SDK handler context). */
  async seal(payload: unknown, target: string, ctx: unknown): Promise<string> {
    const envelope: Envelope = { t: target, c: this.#callerTag(ctx), exp: Math.floor(Date.now() / 1000) + this.#ttlSeconds, p: payload ?? null };
    const body = Buffer.from(JSON.stringify(envelope), 'utf8').toString('base64url');
    return `${PREFIX}${body}.${this.#mac(body).toString('base64url')}`;
  }

  /** The payload of a state this seal minted for `target` and this caller; a {@link WireError} -32602 otherwise. */
  async open(state: string, target: string, ctx: unknown): Promise<unknown> {
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
    if (typeof envelope !== 'object' || envelope === null || envelope.t !== target || envelope.c !== this.#callerTag(ctx)) throw invalid();
    if (typeof envelope.exp !== 'number' || envelope.exp < Math.floor(Date.now() / 1000)) throw invalid();
    return envelope.p;
  }

  #mac(body: string): Buffer {
    return createHmac('sha256', this.#secret()).update(`${PREFIX}${body}`).digest();
  }

  #secret(): Buffer {
    this.#key ??= randomBytes(32);
    return this.#key;
  }

  #callerTag(ctx: unknown): string {
    return createHmac('sha256', this.#secret()).update(`caller:${principalOf(ctx)}`).digest().subarray(0, 16).toString('base64url');
  }
}

function invalid(): WireError {
  return new WireError(
    JsonRpcCode.InvalidParams,
    'Invalid or expired requestState: it was altered, belongs to another request or caller, or is too old. Call again without requestState and inputResponses to start over.',
    { reason: 'invalid_request_state' },
  );
}

/** The authenticated caller of an SDK handler context (v2 `ctx.http.authInfo`, v1 `extra.authInfo`), or '' when anonymous. */
function principalOf(ctx: unknown): string {
  const c = ctx as { http?: { authInfo?: { clientId?: unknown } }; authInfo?: { clientId?: unknown } } | undefined;
  const id = (c?.http?.authInfo ?? c?.authInfo)?.clientId;
  return typeof id === 'string' ? id : '';
}
