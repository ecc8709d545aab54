import { systemClock, type Clock, type Timer } from '../../_internal/clock.js';
import type { EventStore, StoredEvent } from '../../session/EventStore.js';
import type { EventOwner } from '../../session/StreamHolds.js';
import { EVENT_KEY } from '../legacy/SessionEvents.js';
import { primingFrame } from '../http/sseFrames.js';

const encoder = new TextEncoder();

/** One SSE frame of the SDK's listen stream, with the event id it was stored under (none for comments). */
interface Frame {
  readonly id: string | undefined;
  readonly text: string;
}

/**
 * Records one modern `subscriptions/listen` stream: every message the SDK writes is stored in the
 * {@link EventStore} and sent with its event id, after a priming event (id and `retry`). When the client's
 * connection drops, the recorder goes on recording for `lingerMs` (the SDK subscription stays open), so a
 * client that reconnects with `Last-Event-ID` within that time receives every event it missed, once and in
 * order ({@link attach}); then it ends the SDK stream.
 */
export class ListenRecorder {
  readonly stream: string;
  readonly #store: EventStore;
  readonly #retryMs: number;
  readonly #lingerMs: number;
  readonly #clock: Clock;
  readonly #onIdle: (recorder: ListenRecorder) => void;
  readonly #listenId: unknown;
  readonly #owner: EventOwner | undefined;
  #reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  /** Where frames go while a client is attached (undefined while lingering). */
  #sink: ((frame: Frame) => void) | undefined;
  #close: (() => void) | undefined;
  #linger: Timer | undefined;
  #ended = false;
  /** Adopted on another instance: the SDK's acknowledgement (the client has it already) is not recorded again. */
  #skipAck = false;

  constructor(
    stream: string,
    options: {
      store: EventStore;
      retryMs: number;
      lingerMs: number;
      /** The linger's timer (the app's clock; real timers by default). */
      clock?: Clock | undefined;
      listenId: unknown;
      /** Whose ledger budget the recorded events count against. */
      owner?: EventOwner | undefined;
      onIdle: (recorder: ListenRecorder) => void;
    },
  ) {
    this.#listenId = options.listenId;
    this.#owner = options.owner;
    this.stream = stream;
    this.#store = options.store;
    this.#retryMs = options.retryMs;
    this.#lingerMs = options.lingerMs;
    this.#clock = options.clock ?? systemClock;
    this.#onIdle = options.onIdle;
  }

  /** True while no client is attached and the recorder still records (a client may resume). */
  get lingering(): boolean {
    return this.#sink === undefined && !this.#ended;
  }

  /** Takes the SDK's listen response: the returned one starts with a priming event, then every message with its id. */
  async start(response: Response, signal?: AbortSignal): Promise<Response> {
    this.#reader = response.body!.getReader();
    const primed = await this.#store.append(this.stream, {}, undefined, this.#owner);
    const out = this.#output(response, [{ id: primed, text: primingFrame(primed, this.#retryMs) }], new Set(), signal);
    void this.#pump();
    return out;
  }

  /**
   * Takes over a stream another instance recorded (from the SDK's response to its listen request, sent again):
   * it records into the same stream, without a new priming event or acknowledgement. {@link attach} follows.
   */
  adopt(response: Response): void {
    this.#reader = response.body!.getReader();
    this.#skipAck = true;
    void this.#pump();
  }

  /**
   * A client resumes after `lastEventId`: a response that repeats that id as its priming event, then the stored
   * events after it, then the live ones (an event both stored and live is sent once). `undefined` when the
   * events after that id are no longer stored.
   */
  async attach(lastEventId: string, template: ResponseInit, signal?: AbortSignal): Promise<Response | undefined> {
    if (this.#ended) return undefined;
    this.#stopLinger();
    // A client attached still is this one's dead connection (not yet noticed): the resumed stream replaces it.
    this.#close?.();
    const buffered: Frame[] = [];
    this.#sink = (frame) => void buffered.push(frame);
    const replay = await this.#store.after(lastEventId);
    if (!replay.found) {
      this.#detach();
      return undefined;
    }
    const seen = new Set(replay.events.map((e: StoredEvent) => e.id));
    const frames: Frame[] = [{ id: lastEventId, text: primingFrame(lastEventId, this.#retryMs) }];
    for (const event of replay.events)
      if ('jsonrpc' in event.message)
        frames.push({ id: event.id, text: messageFrame(event.id, JSON.stringify(event.message)) });
    for (const frame of buffered)
      if (frame.text !== '' && (frame.id === undefined || !seen.has(frame.id))) frames.push(frame);
    return this.#output(new Response(null, template), frames, seen, signal);
  }

  /**
   * Ends the stream on purpose (its lifetime, its token, shutdown): the client gets the listen request's
   * result, so it does not resume; the SDK stream ends.
   */
  finish(): void {
    const result = {
      jsonrpc: '2.0',
      id: this.#listenId,
      result: { resultType: 'complete', _meta: { 'io.modelcontextprotocol/subscriptionId': this.#listenId } },
    };
    this.#sink?.({ id: undefined, text: `event: message\ndata: ${JSON.stringify(result)}\n\n` });
    this.end();
  }

  /** Ends the SDK stream and any attached client (shutdown, or the linger time is over). */
  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#stopLinger();
    this.#close?.();
    void this.#reader?.cancel('listen stream ended').catch(() => {});
    this.#onIdle(this);
  }

  #output(template: Response, first: Frame[], skip: Set<string>, signal: AbortSignal | undefined): Response {
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({
      start: (c) => {
        controller = c;
        for (const frame of first) c.enqueue(encoder.encode(frame.text));
      },
      // The client went away: keep recording for a while, so that it can resume (unless it already has).
      cancel: () => {
        if (this.#sink === sink) this.#detach();
      },
    });
    const sink = (frame: Frame): void => {
      if (frame.text === '' || (frame.id !== undefined && skip.has(frame.id))) return;
      try {
        controller.enqueue(encoder.encode(frame.text));
      } catch {
        if (this.#sink === sink) this.#detach();
      }
    };
    this.#sink = sink;
    const close = (): void => {
      try {
        controller.close();
      } catch {
        // Already closed or cancelled.
      }
    };
    this.#close = close;
    // The client's request was aborted (it went away, or closed the subscription): its body ends; recording goes on.
    signal?.addEventListener(
      'abort',
      () => {
        close();
        if (this.#sink === sink) this.#detach();
      },
      { once: true },
    );
    return new Response(body, { status: template.status, headers: template.headers });
  }

  #detach(): void {
    if (this.#ended) return;
    this.#sink = undefined;
    this.#close = undefined;
    this.#stopLinger();
    this.#linger = this.#clock.setTimeout(() => this.end(), this.#lingerMs);
  }

  #stopLinger(): void {
    this.#linger?.cancel();
    this.#linger = undefined;
  }

  /** Reads the SDK's frames in order: stores each message, then hands it on. */
  async #pump(): Promise<void> {
    const decoder = new TextDecoder();
    let pending = '';
    try {
      for (;;) {
        const { done, value } = await this.#reader!.read();
        if (done) break;
        pending += decoder.decode(value, { stream: true });
        let at: number;
        while ((at = pending.indexOf('\n\n')) >= 0) {
          const raw = pending.slice(0, at + 2);
          pending = pending.slice(at + 2);
          // Stored first, attached or not: `this.#sink?.(await …)` would skip the store while lingering.
          const frame = await this.#frame(raw);
          this.#sink?.(frame);
        }
      }
    } catch {
      // The SDK stream failed: end like it.
    }
    this.#close?.();
    this.#ended = true;
    this.#stopLinger();
    this.#onIdle(this);
  }

  async #frame(raw: string): Promise<Frame> {
    const data = /^data: (.*)$/m.exec(raw)?.[1];
    if (data === undefined || !raw.startsWith('event: message')) return { id: undefined, text: raw };
    const message = JSON.parse(data) as { method?: string; params?: { _meta?: Record<string, unknown> } };
    if (this.#skipAck && message.method === 'notifications/subscriptions/acknowledged') {
      this.#skipAck = false;
      return { id: undefined, text: '' };
    }
    const meta = message.params?._meta;
    const key = meta?.[EVENT_KEY];
    if (typeof key === 'string') delete meta![EVENT_KEY];
    const id = await this.#store.append(this.stream, message, typeof key === 'string' ? key : undefined, this.#owner);
    return { id, text: messageFrame(id, JSON.stringify(message)) };
  }
}

function messageFrame(id: string, data: string): string {
  return `event: message\nid: ${id}\ndata: ${data}\n\n`;
}
