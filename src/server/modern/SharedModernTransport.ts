import {
  PerRequestHTTPServerTransport,
  ProtocolErrorCode,
  type AuthInfo,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type MessageClassification,
  type RequestId,
  type TransportSendOptions,
} from '@modelcontextprotocol/server';
import { systemClock, type Clock, type Timer } from '../../_internal/clock.js';
import { stringifyMessage } from '../../_internal/fixedJson.js';
import { MODERN_REVISION } from '../http/classify.js';
import { jsonAnswer } from '../http/jsonAnswer.js';
import { onClientGone } from '../node/nodeRequest.js';

/** JSON-RPC errors the SDK answers with an HTTP status when its dispatch ladder (not a handler) raised them. */
const LADDER_STATUS: Readonly<Record<number, number>> = {
  [ProtocolErrorCode.ParseError]: 400,
  [ProtocolErrorCode.InvalidRequest]: 400,
  [ProtocolErrorCode.MethodNotFound]: 404,
  [ProtocolErrorCode.UnsupportedProtocolVersion]: 400,
  [ProtocolErrorCode.MissingRequiredClientCapability]: 400,
  [-32020]: 400, // header mismatch (SEP-2243)
};

const SSE_HEADERS = {
  'Content-Type': 'text/event-stream',
  'Cache-Control': 'no-cache, no-transform',
  Connection: 'keep-alive',
  'X-Accel-Buffering': 'no',
};
const encoder = new TextEncoder();

/** One HTTP exchange in flight: the client's request id, and how its answer leaves. */
interface Exchange {
  readonly clientId: RequestId;
  readonly resolve: (response: Response) => void;
  /** True while the request is being handed to the server synchronously (an error then is the ladder's). */
  dispatching: boolean;
  settled: boolean;
  stream?: { controller: ReadableStreamDefaultController<Uint8Array>; timer: Timer | undefined } | undefined;
  readonly detach: () => void;
}

/**
 * A transport that carries many modern (2026-07-28) requests to one long-lived server, each answered as the
 * SDK's {@link PerRequestHTTPServerTransport} answers its one: a single JSON response (HTTP 200, or the ladder's
 * 4xx for an error the SDK raised before a handler ran), or an SSE stream once a notification for that request
 * precedes its result. It extends that public class only for its documented contract that connecting a
 * `Server` binds the server to the classified modern revision; every method of the base is overridden.
 *
 * Requests of different clients may share a JSON-RPC id, so each is handed to the server under an id of its
 * own and written back under the client's ({@link clientIdOf} gives handlers the client's).
 */
export class SharedModernTransport extends PerRequestHTTPServerTransport {
  readonly #exchanges = new Map<number, Exchange>();
  readonly #keepAliveMs: number;
  readonly #clock: Clock;
  #next = 0;
  #closed = false;

  /** `clock`: the keep-alive's timers (the app's clock; real, unref'd timers by default). */
  constructor(options: { keepAliveMs?: number; clock?: Clock } = {}) {
    super({ classification: { era: 'modern', revision: MODERN_REVISION } as MessageClassification });
    this.#keepAliveMs = options.keepAliveMs ?? 15_000;
    this.#clock = options.clock ?? systemClock;
  }

  override async start(): Promise<void> {}

  /** The id the client sent for the request the server knows as `id` (the server's own id when unknown). */
  clientIdOf(id: RequestId): RequestId {
    return (typeof id === 'number' ? this.#exchanges.get(id)?.clientId : undefined) ?? id;
  }

  /** Serves one request: resolves with its HTTP response, or 499 when the client went away first. */
  serve(
    message: JSONRPCRequest,
    extra: { request: Request; authInfo?: AuthInfo; classification: MessageClassification },
  ): Promise<Response> {
    if (this.#closed) return Promise.reject(new Error('The modern dispatcher is closed'));
    const id = ++this.#next;
    return new Promise((resolve) => {
      const detach = onClientGone(extra.request, () => this.#abort(id));
      if (detach === undefined) {
        resolve(gone());
        return;
      }
      const exchange: Exchange = { clientId: message.id, resolve, dispatching: true, settled: false, detach };
      this.#exchanges.set(id, exchange);
      try {
        this.onmessage?.({ ...message, id }, extra);
      } finally {
        exchange.dispatching = false;
      }
    });
  }

  override async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    // The server's own messages: a response carries no method (a request or notification does).
    const terminal = !('method' in message);
    const id = terminal ? message.id : options?.relatedRequestId;
    const exchange = typeof id === 'number' ? this.#exchanges.get(id) : undefined;
    if (exchange === undefined) {
      if (terminal && !this.#closed)
        this.onerror?.(new Error(`Received a response for an unknown request id: ${String(id)}`));
      return;
    }
    if (!terminal) {
      this.#frame(exchange, message);
      return;
    }
    this.#exchanges.delete(id as number);
    exchange.detach();
    const answer = { ...message, id: exchange.clientId };
    if (exchange.stream === undefined) {
      const code = 'error' in message ? message.error.code : undefined;
      const ladder =
        code !== undefined && (exchange.dispatching || code === ProtocolErrorCode.MissingRequiredClientCapability)
          ? LADDER_STATUS[code]
          : undefined;
      settle(exchange, jsonAnswer(stringifyMessage(answer), ladder ?? 200));
      return;
    }
    this.#frame(exchange, answer);
    endStream(exchange);
  }

  override handleMessage(): Promise<Response> {
    return Promise.reject(new Error('SharedModernTransport serves requests through serve(), not handleMessage()'));
  }

  override writeCommentFrame(): void {}

  override async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const id of [...this.#exchanges.keys()]) this.#abort(id, false);
    this.onclose?.();
  }

  /** The client went away (or the server closes): 499, its stream ends, and its handler is told to stop. */
  #abort(id: number, cancel = true): void {
    const exchange = this.#exchanges.get(id);
    if (exchange === undefined) return;
    this.#exchanges.delete(id);
    exchange.detach();
    settle(exchange, gone());
    endStream(exchange);
    if (cancel) {
      const notice = {
        jsonrpc: '2.0' as const,
        method: 'notifications/cancelled',
        params: { requestId: id, reason: 'The client closed the request.' },
      };
      this.onmessage?.(notice, {
        classification: { era: 'modern', revision: MODERN_REVISION } as MessageClassification,
      });
    }
  }

  /** Writes one message on the exchange's SSE stream, opening the stream (and answering with it) first. */
  #frame(exchange: Exchange, message: unknown): void {
    if (exchange.stream === undefined) {
      if (exchange.settled) return;
      let controller!: ReadableStreamDefaultController<Uint8Array>;
      const body = new ReadableStream<Uint8Array>({
        start: (c) => {
          controller = c;
        },
        cancel: () => {
          for (const [id, e] of this.#exchanges) if (e === exchange) this.#abort(id);
        },
      });
      const timer =
        this.#keepAliveMs >= 1
          ? this.#clock.setInterval(() => write(exchange, ': keepalive\n\n'), this.#keepAliveMs)
          : undefined;
      exchange.stream = { controller, timer };
      settle(exchange, new Response(body, { status: 200, headers: SSE_HEADERS }));
    }
    write(exchange, `event: message\ndata: ${JSON.stringify(message)}\n\n`);
  }
}

function settle(exchange: Exchange, response: Response): void {
  if (exchange.settled) return;
  exchange.settled = true;
  exchange.resolve(response);
}

function write(exchange: Exchange, frame: string): void {
  try {
    exchange.stream?.controller.enqueue(encoder.encode(frame));
  } catch {
    // The stream is closed; nothing to write to.
  }
}

function endStream(exchange: Exchange): void {
  const stream = exchange.stream;
  if (stream === undefined) return;
  exchange.stream = undefined;
  stream.timer?.cancel();
  try {
    stream.controller.close();
  } catch {
    // Already closed (the client cancelled it).
  }
}

/** What the SDK's handler answers when the client disconnected before the response. */
function gone(): Response {
  return new Response(null, { status: 499 });
}
