import { streamOfEventId } from '../../session/EventStore.js';
import { ListenRecordings, type ListenEvents } from './ListenRecordings.js';
import { principalOf } from '../../principal/principalOf.js';
import { peerFallback } from '../../principal/requestPrincipal.js';
import { jsonRpcIdOf, type JsonRpcId } from '../../protocol/jsonRpcId.js';
import { heldBytesRefused, httpError } from '../http/httpErrors.js';
import type { ByteLedger, Hold } from '../../ledger/ByteLedger.js';
import { frontHolder } from '../../principal/frontHolder.js';
import type { Holder } from '../../ledger/types.js';
import { clockOf, type Timer } from '../../_internal/clock.js';
import { trackBody } from '../http/trackBody.js';

/** True for a modern `subscriptions/listen` request body. */
export function isListen(body: unknown): boolean {
  return typeof body === 'object' && body !== null && (body as { method?: unknown }).method === 'subscriptions/listen';
}

/** Limits of {@link ListenStreams}. */
export interface ListenLimits {
  /** Open streams per principal: a verified user or client, or the peer (IPv6: its /64) of an anonymous caller. */
  readonly perPrincipal: number;
  /** Open streams on this process for everyone. */
  readonly total: number;
  /** A stream is ended after this long (the client listens again). */
  readonly maxLifetimeMs: number;
  /** URIs in one stream's `resourceSubscriptions` filter. */
  readonly maxFilterUris: number;
  /** Bytes (UTF-8) of the URIs in one stream's filter. */
  readonly maxFilterBytes: number;
  /** Bytes of the filters of every open stream on this process. */
  readonly maxFilterBytesTotal: number;
}

/**
 * A reserved stream: its budget key, the filter bytes it holds, the request body to serve (hidden URIs
 * dropped), and the ledger's hold of the whole request (handed to its recorder when the stream is recorded).
 */
export interface ListenSlot {
  readonly principal: string;
  /** Whose held bytes the stream's are (its request, its recorded events). */
  readonly holder: Holder;
  readonly bytes: number;
  readonly body: unknown;
  hold: Hold | undefined;
}

/**
 * Caps the open `subscriptions/listen` streams (the SDK caps them only per handler) per principal and in
 * total, the size of their `resourceSubscriptions` filters one by one and together, and ends each stream
 * after a maximum lifetime or when the token that opened it expires. A stream counts until its response
 * body ends, errors, is cancelled or is ended. Refusals come before any work proportional to the filter.
 */
export class ListenStreams {
  readonly #open = new Map<string, number>();
  readonly #limits: ListenLimits;
  readonly #now: () => number;
  readonly #closers = new Set<() => void>();
  /** Recordings of resumable streams, when the app has an event store. */
  readonly #recordings: ListenRecordings | undefined;
  readonly #ledger: ByteLedger | undefined;
  #total = 0;
  #bytes = 0;

  constructor(limits: ListenLimits, now: () => number = Date.now, events?: ListenEvents, ledger?: ByteLedger) {
    this.#limits = limits;
    this.#now = now;
    this.#ledger = ledger;
    this.#recordings = events === undefined ? undefined : new ListenRecordings(events, limits);
  }

  /** The SDK's listen response, made resumable when the app has an event store ({@link ListenRecordings.record}). */
  async record(response: Response, slot: ListenSlot, signal?: AbortSignal): Promise<Response> {
    return this.#recordings?.record(response, slot, signal) ?? response;
  }

  /**
   * The listen request as the SDK should see it: when streams are recorded, without the connection's abort
   * signal (the SDK ends a subscription when it aborts; a recorder ends it after its resume window instead).
   */
  detached(request: Request): Request {
    return this.#recordings === undefined
      ? request
      : new Request(request.url, { method: request.method, headers: request.headers });
  }

  /**
   * A modern GET with `Last-Event-ID` (how the SDK client resumes a dropped listen stream): the events the
   * client missed, then the stream live again, when its recorder is still here and the id is the caller's.
   * `undefined` when the request is not such a resume; a refusal that says what to do otherwise.
   */
  async resume(
    request: Request,
    caller: { authInfo: unknown; peer: string | undefined; expiresAtMs?: number | undefined },
    relisten: (listen: Request, body: unknown) => Promise<Response>,
  ): Promise<Response | undefined> {
    const tokenExpiry = caller.expiresAtMs;
    const last = request.headers.get('last-event-id');
    const recordings = this.#recordings;
    if (recordings === undefined || request.method !== 'GET' || last === null || last === '') return undefined;
    const slot = this.open({}, caller, () => true);
    if (slot instanceof Response) return slot;
    const recorder = await recordings.find(streamOfEventId(last), slot, request, relisten);
    const gone = (why: string): Response => {
      this.release(slot);
      return httpError(
        'resumeUnknown',
        `Cannot resume: Last-Event-ID ${JSON.stringify(last)} ${why}. Send subscriptions/listen again (and list again what you follow).`,
      );
    };
    if (recorder === undefined)
      return gone('names no listen stream of yours that is still stored (it ended, or outlived its resume window)');
    const headers = {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache, no-transform',
      'x-accel-buffering': 'no',
    };
    const resumed = await recorder.attach(last, { status: 200, headers }, request.signal);
    if (resumed === undefined) return gone('can no longer be replayed: the events after it were evicted or expired');
    recordings.mark(resumed, recorder);
    return this.track(resumed, slot, tokenExpiry);
  }

  /**
   * Reserves a stream for the caller (`peer`: its peer key, the key of anonymous callers), or answers
   * why not: `429`/`503` with `Retry-After` for a full budget, `400` for a filter over its size. URIs the
   * caller may not see (`visible` false) are dropped from the filter, without naming them. `requestBytes`, the
   * whole request's size, is held in the ledger (kind `listen`) while the stream is open and, recorded, while
   * its recording is kept; past a budget the ledger's refusal answers.
   */
  open(
    body: unknown,
    caller: { authInfo: unknown; peer: string | undefined },
    visible: (uri: string) => boolean,
    requestBytes = 0,
  ): ListenSlot | Response {
    const principal = principalOf(
      caller.authInfo,
      caller.peer === undefined ? undefined : peerFallback(caller.peer),
    ).key;
    const count = this.#open.get(principal) ?? 0;
    const id = jsonRpcIdOf(body);
    const l = this.#limits;
    if (count >= l.perPrincipal) {
      return httpError(
        'tooManyListenStreams',
        `Too many open subscription streams: this client already holds ${l.perPrincipal}. Close one (or reuse one stream with a wider filter) and listen again.`,
        id,
      );
    }
    if (this.#total >= l.total)
      return this.#busy(`this server holds its maximum of ${l.total} subscription streams`, id);
    const uris = (body as { params?: { notifications?: { resourceSubscriptions?: unknown } } }).params?.notifications
      ?.resourceSubscriptions;
    let bytes = 0;
    let served = body;
    if (Array.isArray(uris)) {
      if (uris.length > l.maxFilterUris)
        return tooLarge(`names ${uris.length} resource URIs; the most is ${l.maxFilterUris}`, id);
      for (const uri of uris) bytes += typeof uri === 'string' ? Buffer.byteLength(uri) : 0;
      if (bytes > l.maxFilterBytes)
        return tooLarge(`holds ${bytes} bytes of resource URIs; the most is ${l.maxFilterBytes}`, id);
      if (this.#bytes + bytes > l.maxFilterBytesTotal)
        return this.#busy(
          `the subscription filters open on this server hold their maximum of ${l.maxFilterBytesTotal} bytes`,
          id,
        );
      served = narrowed(body, uris, visible);
    }
    const holder = frontHolder(caller.authInfo, caller.peer);
    const hold = requestBytes > 0 ? this.#ledger?.take('listen', holder, requestBytes) : undefined;
    if (hold !== undefined && 'budget' in hold) return heldBytesRefused(hold, id);
    this.#open.set(principal, count + 1);
    this.#total++;
    this.#bytes += bytes;
    return { principal, holder, bytes, body: served, hold };
  }

  /**
   * Releases the reservation when the stream's body ends, errors, is cancelled, outlives its lifetime, or
   * when `expiresAtMs` (the opening token's expiry, epoch milliseconds) passes: the client listens again
   * with a fresh token.
   */
  track(response: Response, slot: ListenSlot, expiresAtMs?: number): Response {
    if (!response.ok) {
      this.release(slot);
      return response;
    }
    const state = { released: false, end: (): void => {} };
    const lifetime =
      expiresAtMs === undefined
        ? this.#limits.maxLifetimeMs
        : Math.min(this.#limits.maxLifetimeMs, expiresAtMs - this.#now());
    // A recorded stream ends on purpose through its recorder: the client gets the listen result and does not resume.
    const recorder = this.#recordings?.recorderOf(response);
    let timer: Timer | undefined;
    const tracked = trackBody(
      response,
      () => {
        state.released = true;
        timer?.cancel();
        this.#closers.delete(state.end);
        this.release(slot);
      },
      recorder === undefined ? lifetime : undefined,
      clockOf(this.#now),
    );
    state.end = recorder === undefined ? tracked.end : () => recorder.finish();
    if (recorder !== undefined && !state.released)
      timer = clockOf(this.#now).setTimeout(state.end, Math.max(0, lifetime));
    if (!state.released) this.#closers.add(state.end);
    return tracked.response;
  }

  /** Gives back a reservation whose stream never opened (its request failed). */
  release(slot: ListenSlot): void {
    slot.hold?.release();
    this.#total--;
    this.#bytes -= slot.bytes;
    const left = (this.#open.get(slot.principal) ?? 1) - 1;
    if (left <= 0) this.#open.delete(slot.principal);
    else this.#open.set(slot.principal, left);
  }

  /** Ends every open stream and every recording (shutdown). */
  closeAll(): void {
    for (const end of [...this.#closers]) end();
    this.#recordings?.endAll();
  }

  /** Open streams per principal key (for tests and metrics). */
  countFor(principal: string): number {
    return this.#open.get(principal) ?? 0;
  }

  /** Open streams on this process. */
  get size(): number {
    return this.#total;
  }

  /** Bytes of the filters of the open streams. */
  get filterBytes(): number {
    return this.#bytes;
  }

  #busy(what: string, id: JsonRpcId): Response {
    return httpError('listenBusy', `Service Unavailable: ${what}. Listen again later or on another instance.`, id);
  }
}

function tooLarge(what: string, id: JsonRpcId): Response {
  return httpError(
    'listenFilterTooLarge',
    `Invalid params: the resourceSubscriptions filter ${what}. Listen with fewer URIs (open another stream for the rest).`,
    id,
  );
}

/** The body with the filter's invisible URIs left out (the body itself when every URI is visible). */
function narrowed(body: unknown, uris: readonly unknown[], visible: (uri: string) => boolean): unknown {
  const kept = uris.filter((uri) => typeof uri !== 'string' || visible(uri));
  if (kept.length === uris.length) return body;
  const message = body as { params: { notifications: Record<string, unknown> } };
  return {
    ...message,
    params: { ...message.params, notifications: { ...message.params.notifications, resourceSubscriptions: kept } },
  };
}
