import { randomUUID } from 'node:crypto';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import type { Clock, Timer } from '../../_internal/clock.js';
import type { ReplayResult } from '../../session/EventStore.js';
import { frameBytes, legacyJsonAnswer, messageFrame, sseAnswer } from './legacyAnswer.js';
import { primingFrame } from '../http/sseFrames.js';

/** Where a call's answer goes and what its stream may do; shared by the calls of one session. */
export interface CallAnswerContext {
  readonly sessionId: string;
  /** The session's event store view: events of a stream are stored under its stream id (absent: not resumable). */
  readonly events:
    | {
        storeEvent(streamId: string, message: JSONRPCMessage | object): Promise<string>;
        after(eventId: string): Promise<ReplayResult>;
      }
    | undefined;
  /** The reconnection delay written in the priming event. */
  readonly retryMs: number | undefined;
  readonly clock: Clock;
  /** The SDK's SSE keep-alive period (a comment line while a stream waits). */
  readonly keepAliveMs: number;
  /** The answer became a stream: it can be resumed by its id until it ends. */
  onStream(streamId: string, call: CallAnswer): void;
  onStreamEnd(streamId: string): void;
}

const KEEP_ALIVE = frameBytes(': keepalive\n\n');

/**
 * The HTTP answer of one JSON-RPC request POSTed alone on a legacy session. While only the response comes
 * back, it is one JSON body. The first message related to the call that comes before the response
 * (progress, logging, an elicitation or sampling request) turns it into an SSE stream, as the SDK
 * transport writes it: a priming event when the client reads them (its id and `retry`), then every message
 * with its event id, each stored first so that a client that lost the stream resumes with `Last-Event-ID`.
 *
 * Streamable HTTP (2025-11-25), "Sending Messages to the Server": "If the input is a JSON-RPC request, the
 * server MUST either return `Content-Type: text/event-stream`, to initiate an SSE stream, or
 * `Content-Type: application/json`, to return one JSON object. The client MUST support both these cases."
 */
export class CallAnswer {
  /** Settles with the JSON answer, or with the SSE answer once the call streams. */
  readonly response: Promise<Response>;
  readonly #context: CallAnswerContext;
  readonly #primes: boolean;
  #resolve!: (response: Response) => void;
  /** Set once the answer is a stream. */
  #streamId: string | undefined;
  /** The client's connection to the stream, while it has one. */
  #out: ReadableStreamDefaultController<Uint8Array> | undefined;
  #keepAlive: Timer | undefined;
  /** Stream work in order: priming, messages and resumes never interleave. */
  #queue: Promise<unknown> = Promise.resolve();
  #ended = false;
  /** Something asked for a stream (its work may still wait in the queue): the answer is no longer JSON. */
  #streaming = false;

  /** `primes`: the client reads priming events (and there is an event store), as the SDK decides per POST. */
  constructor(context: CallAnswerContext, primes: boolean) {
    this.#context = context;
    this.#primes = primes;
    this.response = new Promise((resolve) => (this.#resolve = resolve));
  }

  /** A message from the server for this call; `final` for its response. */
  send(message: JSONRPCMessage, final: boolean): Promise<void> {
    if (!this.#streaming && final && !this.#ended) {
      this.#ended = true;
      this.#resolve(legacyJsonAnswer(message, this.#context.sessionId));
      return Promise.resolve();
    }
    this.#streaming = true;
    return this.#then(async () => {
      if (this.#ended) return;
      await this.#open();
      const id = await this.#context.events?.storeEvent(this.#streamId!, message);
      this.#write(messageFrame(message, id));
      if (final) this.#end();
    });
  }

  /** The handler asked to close its stream (polling): the client reconnects with the priming event's id. */
  closeStream(): void {
    this.#streaming = true;
    void this.#then(async () => {
      if (this.#ended) return;
      await this.#open();
      this.#disconnect();
    });
  }

  /**
   * A client reconnecting to this call's stream with `Last-Event-ID`: the stored events after it, then the
   * call's next messages live. `undefined` when the store cannot replay it (the SDK transport answers that).
   * The new connection replaces one the server still holds (as the standalone GET stream's resume does): the
   * client only reconnects once its old one is dead, even if no FIN from a cut network told the server yet.
   */
  resume(lastEventId: string): Promise<Response | undefined> {
    return this.#then(async () => {
      const replay = await this.#context.events?.after(lastEventId);
      if (replay?.found !== true) return undefined;
      const body = this.#stream();
      // Priming events (`{}`) hold a place in the stream; only messages are sent again.
      for (const event of replay.events)
        if ('jsonrpc' in event.message) this.#write(messageFrame(event.message, event.id));
      if (this.#ended) this.#disconnect();
      return sseAnswer(body, this.#context.sessionId);
    });
  }

  /** The call was cancelled or its session closed: the answer ends without a response, as the SDK's streams do. */
  abandon(): void {
    if (this.#ended) return;
    this.#ended = true;
    if (this.#streamId === undefined) this.#resolve(sseAnswer(closedStream(), this.#context.sessionId));
    else this.#context.onStreamEnd(this.#streamId);
    this.#disconnect();
  }

  #then<T>(work: () => Promise<T>): Promise<T> {
    const next = this.#queue.then(work);
    this.#queue = next.catch(() => {});
    return next;
  }

  /** Turns the answer into a stream (once): the response goes out, then the priming event. */
  async #open(): Promise<void> {
    if (this.#streamId !== undefined) return;
    const streamId = randomUUID();
    this.#streamId = streamId;
    this.#resolve(sseAnswer(this.#stream(), this.#context.sessionId));
    this.#context.onStream(streamId, this);
    const events = this.#context.events;
    if (this.#primes && events !== undefined)
      this.#write(frameBytes(primingFrame(await events.storeEvent(streamId, {}), this.#context.retryMs)));
  }

  /** A new connection to the stream, which the call writes to from now on. */
  #stream(): ReadableStream<Uint8Array> {
    this.#disconnect();
    let out!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => void (out = controller),
      cancel: () => {
        if (this.#out === out) this.#disconnect();
      },
    });
    this.#out = out;
    this.#keepAlive = this.#context.clock.setInterval(() => this.#write(KEEP_ALIVE), this.#context.keepAliveMs);
    return body;
  }

  #write(bytes: Uint8Array): void {
    try {
      this.#out?.enqueue(bytes);
    } catch {
      this.#out = undefined;
    }
  }

  #disconnect(): void {
    this.#keepAlive?.cancel();
    this.#keepAlive = undefined;
    const out = this.#out;
    this.#out = undefined;
    try {
      out?.close();
    } catch {
      // Already closed or cancelled by the client.
    }
  }

  #end(): void {
    this.#ended = true;
    this.#disconnect();
    this.#context.onStreamEnd(this.#streamId!);
  }
}

function closedStream(): ReadableStream<Uint8Array> {
  return new ReadableStream({ start: (controller) => controller.close() });
}
