import { createHash, randomUUID } from 'node:crypto';
import type { Clock } from '../../_internal/clock.js';
import type { EventStore } from '../../session/EventStore.js';
import type { ByteLedger, Hold } from '../../ledger/ByteLedger.js';
import type { Holder } from '../../ledger/types.js';
import type { EventOwner } from '../../session/StreamHolds.js';
import { jsonRpcIdOf } from '../../protocol/jsonRpcId.js';
import { ListenRecorder } from './ListenRecorder.js';

/** Resumable listen streams: where their events wait, the `retry` suggested, and how long a dropped one keeps recording. */
export interface ListenEvents {
  readonly store: EventStore;
  readonly retryMs: number;
  readonly lingerMs: number;
  /** The clock of the lingering (the app's; real timers when absent). */
  readonly clock?: Clock | undefined;
  /** The app's ledger: each stream's stored events and request are held there for its owner (kind `event`). */
  readonly ledger?: ByteLedger | undefined;
}

/** Listens again with a stored `subscriptions/listen` request (the app's modern leg). */
type ListenAgain = (listen: Request, body: unknown) => Promise<Response>;

/**
 * The recorders of resumable listen streams (`eventStore` on): one per stream, by name, attached to a client
 * or lingering after a drop (oldest first). At most `total` record at once, and `perPrincipal` for one
 * principal: past either, the oldest lingering one (of that principal first) stops, so that nobody's dropped
 * streams push out everybody else's. A stream's name starts with a tag of its principal, so only its owner resumes it.
 */
export class ListenRecordings {
  readonly #events: ListenEvents;
  readonly #total: number;
  readonly #perPrincipal: number;
  readonly #recorders = new Map<string, ListenRecorder>();
  /** The recorder behind a response made resumable (its lifetime ends it on purpose). */
  readonly #recording = new WeakMap<Response, ListenRecorder>();

  constructor(events: ListenEvents, limits: { total: number; perPrincipal: number }) {
    this.#events = events;
    this.#total = limits.total;
    this.#perPrincipal = limits.perPrincipal;
  }

  /**
   * The SDK's listen response, made resumable: a priming event (id and `retry`), then every message with its
   * event id, recorded; a dropped stream keeps recording for `lingerMs`. Anything but an open SSE answer is
   * returned as it is.
   */
  async record(
    response: Response,
    slot: { readonly principal: string; readonly holder: Holder; readonly body: unknown; hold: Hold | undefined },
    signal?: AbortSignal,
  ): Promise<Response> {
    if (!response.ok || response.body === null || !response.headers.get('content-type')?.includes('text/event-stream'))
      return response;
    const { body } = slot;
    const prefix = `l:${tagOf(slot.principal)}/`;
    // The recorder keeps the request as long as it records: the ledger's hold of it ends with the recording.
    const owner = this.#ownerOf(slot.holder);
    const recorder = this.#recorder(`${prefix}${randomUUID()}`, body, owner, slot.hold);
    slot.hold = undefined;
    this.#trim((stream) => stream.startsWith(prefix), this.#perPrincipal);
    this.#trim(() => true, this.#total);
    const out = await recorder.start(response, signal);
    await this.#events.store.describe(recorder.stream, { body }, owner);
    this.#recording.set(out, recorder);
    return out;
  }

  /**
   * The recorder of the caller's stream named by an event id: here, or adopted from the store when the stream
   * was recorded on another instance; `undefined` when it is not the principal's or no longer stored.
   */
  async find(
    stream: string | undefined,
    caller: { readonly principal: string; readonly holder: Holder },
    request: Request,
    relisten: ListenAgain,
  ) {
    if (stream?.startsWith(`l:${tagOf(caller.principal)}/`) !== true) return undefined;
    return this.#recorders.get(stream) ?? (await this.#adopt(stream, caller.holder, request, relisten));
  }

  /** Remembers that `response` is `recorder`'s (a resumed stream). */
  mark(response: Response, recorder: ListenRecorder): void {
    this.#recording.set(response, recorder);
  }

  /** The recorder behind a response this class made resumable. */
  recorderOf(response: Response): ListenRecorder | undefined {
    return this.#recording.get(response);
  }

  /** Stops every recording (shutdown). */
  endAll(): void {
    for (const recorder of [...this.#recorders.values()]) recorder.end();
  }

  /** Ends the oldest lingering recordings among those `counted` until at most `most` of them are left. */
  #trim(counted: (stream: string) => boolean, most: number): void {
    let count = 0;
    for (const stream of this.#recorders.keys()) if (counted(stream)) count++;
    for (const [stream, old] of this.#recorders) {
      if (count <= most) break;
      if (!counted(stream) || !old.lingering) continue;
      old.end();
      count--;
    }
  }

  #ownerOf(holder: Holder): EventOwner | undefined {
    const ledger = this.#events.ledger;
    return ledger === undefined ? undefined : { ledger, holder };
  }

  #recorder(stream: string, body: unknown, owner: EventOwner | undefined, hold?: Hold): ListenRecorder {
    const recorder = new ListenRecorder(stream, {
      ...this.#events,
      owner,
      listenId: jsonRpcIdOf(body),
      onIdle: (r) => {
        hold?.release();
        if (this.#recorders.get(r.stream) === r) this.#recorders.delete(r.stream);
      },
    });
    this.#recorders.set(stream, recorder);
    return recorder;
  }

  /**
   * A stream recorded on another instance (its request is in the store): listened to again here with the same
   * request (same subscription id), recording into the same stream, so the client continues where it was.
   */
  async #adopt(
    stream: string,
    holder: Holder,
    request: Request,
    relisten: ListenAgain,
  ): Promise<ListenRecorder | undefined> {
    const described = (await this.#events.store.descriptionOf(stream)) as { body?: unknown } | undefined;
    if (described?.body === undefined) return undefined;
    const headers = new Headers(request.headers);
    headers.delete('last-event-id');
    headers.set('content-type', 'application/json');
    headers.set('accept', 'application/json, text/event-stream');
    headers.set('mcp-method', 'subscriptions/listen');
    const response = await relisten(new Request(request.url, { method: 'POST', headers }), described.body);
    if (!response.ok || response.body === null) return undefined;
    const recorder = this.#recorder(stream, described.body, this.#ownerOf(holder));
    recorder.adopt(response);
    return recorder;
  }
}

/** A short, stable tag of a principal key (in listen stream names, so that only its owner resumes one). */
function tagOf(principal: string): string {
  return createHash('sha256').update(principal).digest('hex').slice(0, 16);
}
