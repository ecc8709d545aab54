import {
  DEFAULT_NEGOTIATED_PROTOCOL_VERSION,
  isJsonContentType,
  parseJSONRPCMessage,
  SUPPORTED_PROTOCOL_VERSIONS,
  WebStandardStreamableHTTPServerTransport,
  type AuthInfo,
  type JSONRPCMessage,
  type RequestId,
  type Transport,
  type TransportSendOptions,
  type WebStandardStreamableHTTPServerTransportOptions,
} from '@modelcontextprotocol/server';
import { ServerRequestIds } from '../../session/ServerRequestIds.js';
import { CallAnswer, type CallAnswerContext } from './CallAnswer.js';
import { legacyJsonAnswer } from './legacyAnswer.js';
import { isPlainRequest, type Classified } from '../http/classify.js';
import { requestIdInUse } from '../http/requestIdInUse.js';
import { acceptsPriming } from '../http/sseFrames.js';
import { EVENT_KEY, type SessionEvents } from './SessionEvents.js';

/** The SDK transport's keep-alive period for SSE streams (its `keepAliveMs` default). */
const KEEP_ALIVE_MS = 15_000;

/** What {@link SessionTransport} needs besides the SDK transport's own options. */
export interface SessionTransportOptions extends Pick<
  WebStandardStreamableHTTPServerTransportOptions,
  'onsessioninitialized' | 'onsessionclosed' | 'retryInterval'
> {
  readonly sessionId: string;
  /** The session's resumable streams (absent: no event store). */
  readonly events: SessionEvents | undefined;
  readonly clock: CallAnswerContext['clock'];
}

/**
 * The transport of one legacy session, on the SDK's public `Transport` interface. A POST of one JSON-RPC
 * request is answered here (see {@link CallAnswer}): one JSON body when its response is the only message
 * back, SSE with stored events once anything related to it comes first, and a `Last-Event-ID` GET of such
 * a stream resumes it here. Everything else — `initialize`, notifications and responses (202), batches,
 * the standalone GET stream, DELETE, resuming other streams, and every refusal — goes to the SDK's
 * `WebStandardStreamableHTTPServerTransport` kept inside, unchanged; a POST this transport would answer
 * differently from it (a wrong `Accept`, `Content-Type`, session id or protocol version, a message the
 * SDK's schema refuses) goes there too, so its refusals stay byte for byte the SDK's.
 *
 * A request whose id is the id of a request of this session still running is refused (Invalid Request, for
 * that id) and never reaches the server: its answer would be routed to the other request's POST, and the
 * SDK would lose the other request's cancellation. In a batch, a member reusing the id of a call answered
 * here is refused the same way on the batch's stream; ids repeated among batches the SDK transport serves
 * are left to it (its per-id stream mapping is inside it).
 */
export class SessionTransport implements Transport {
  readonly #inner: WebStandardStreamableHTTPServerTransport;
  readonly #context: CallAnswerContext;
  readonly #events: SessionEvents | undefined;
  /** Requests answered here whose response has not been sent, by JSON-RPC id. */
  readonly #calls = new Map<RequestId, CallAnswer>();
  /** Their streams (once a call streams), by the stream id its event ids name. */
  readonly #streams = new Map<string, CallAnswer>();
  /** Requests the SDK transport inside serves (`initialize`, batch members) whose response has not been sent. */
  readonly #innerCalls = new Set<RequestId>();
  /** The ids of this server's requests to the client, unique across instances. */
  readonly #requestIds = new ServerRequestIds();
  #versions: string[] = SUPPORTED_PROTOCOL_VERSIONS;
  #closed = false;
  /**
   * Hears a client's answer to a request this instance did not send (another instance of the session sent
   * it: the app forwards it there over the session bus). Unset, such an answer goes to the server as before.
   */
  onforeignanswer?: ((answer: JSONRPCMessage) => void) | undefined;
  /**
   * Takes this server's requests to the client that go on the session's GET stream (a task's elicitation):
   * the app sends them over the session bus to whichever instance holds that stream ({@link sendStandalone}).
   * Unset, they go on this instance's GET stream, if open here.
   */
  onstandalonerequest?: ((request: JSONRPCMessage) => void) | undefined;
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: Transport['onmessage'];

  constructor(options: SessionTransportOptions) {
    const { sessionId, events, clock, ...sdk } = options;
    this.#inner = new WebStandardStreamableHTTPServerTransport({
      ...sdk,
      ...(events !== undefined ? { eventStore: events } : {}),
      sessionIdGenerator: () => sessionId,
    });
    this.#inner.onmessage = (received, extra) => {
      const message = this.#fromClient(received);
      if (message === undefined) return;
      const id = 'method' in message && 'id' in message ? message.id : undefined;
      if (id !== undefined && this.#calls.has(id)) {
        this.#inner.send(requestIdInUse(id, 'session')).catch((error: Error) => this.onerror?.(error));
        return;
      }
      if (id !== undefined) this.#innerCalls.add(id);
      this.onmessage?.(message, extra);
      // A cancelled call sends no response: its answer ends here, so its HTTP request (and call slot) ends too.
      if ((message as { method?: unknown }).method === 'notifications/cancelled')
        this.#cancelled((message as { params?: { requestId?: RequestId } }).params?.requestId);
    };
    this.#inner.onerror = (error) => this.onerror?.(error);
    this.#inner.onclose = () => {
      this.#closed = true;
      for (const call of this.#calls.values()) call.abandon();
      this.#calls.clear();
      this.#innerCalls.clear();
      this.#streams.clear();
      this.onclose?.();
    };
    this.#events = events;
    this.#context = {
      sessionId,
      events,
      retryMs: options.retryInterval,
      clock,
      keepAliveMs: KEEP_ALIVE_MS,
      onStream: (streamId, call) => this.#streams.set(streamId, call),
      onStreamEnd: (streamId) => this.#streams.delete(streamId),
    };
  }

  /** The session id, once `initialize` was served. */
  get sessionId(): string | undefined {
    return this.#inner.sessionId;
  }

  start(): Promise<void> {
    return this.#inner.start();
  }

  setSupportedProtocolVersions(versions: string[]): void {
    this.#versions = versions;
    this.#inner.setSupportedProtocolVersions(versions);
  }

  close(): Promise<void> {
    return this.#inner.close();
  }

  /** Closes the standalone GET stream (the client reconnects with `Last-Event-ID`). */
  closeStandaloneSSEStream(): void {
    this.#inner.closeStandaloneSSEStream();
  }

  /**
   * Sends a server request that came over the session bus on this instance's GET stream (dropped when it is
   * not open here). `key` is its identity on the bus: every instance that sends it stores it once.
   */
  sendStandalone(request: JSONRPCMessage, key?: string): Promise<void> {
    const { method, params } = request as { method: string; params?: Record<string, unknown> };
    const meta = { ...(params?._meta as Record<string, unknown> | undefined), [EVENT_KEY]: key };
    if (key !== undefined) this.#events?.expect({ method, params: { ...params, _meta: meta } });
    return this.#inner.send(request);
  }

  /** A client's answer forwarded from another instance: handed to the server if this instance sent its request. */
  answer(answer: unknown): boolean {
    const own = ServerRequestIds.isAnswer(answer) ? this.#requestIds.incoming(answer) : undefined;
    if (own !== undefined) this.onmessage?.(own);
    return own !== undefined;
  }

  /** A message from the client as the server gets it; `undefined` for an answer forwarded to another instance. */
  #fromClient(message: JSONRPCMessage): JSONRPCMessage | undefined {
    if (!ServerRequestIds.isAnswer(message)) return message;
    const own = this.#requestIds.incoming(message);
    if (own !== undefined || this.onforeignanswer === undefined) return own ?? message;
    this.onforeignanswer(message);
    return undefined;
  }

  send(sent: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const message = this.#requestIds.outgoing(sent);
    const final = !('method' in message) && ('result' in message || 'error' in message);
    const id = final ? (message as { id: RequestId }).id : options?.relatedRequestId;
    const call = id === undefined ? undefined : this.#calls.get(id);
    if (call === undefined) {
      if (id === undefined && 'id' in message && this.onstandalonerequest !== undefined)
        return Promise.resolve(this.onstandalonerequest(message));
      if (final) this.#innerCalls.delete(id!);
      return this.#inner.send(message, options as { relatedRequestId?: RequestId });
    }
    if (final) this.#calls.delete(id!);
    return call.send(message, final);
  }

  /**
   * Serves one HTTP request of this session (`parsedBody`: the POST's JSON body; `classified`: the app's
   * classification of it, whose session id and shape are taken as found, not read again).
   */
  async handleRequest(
    request: Request,
    options: { parsedBody?: unknown; authInfo?: AuthInfo; classified?: Classified } = {},
  ): Promise<Response> {
    if (request.method === 'POST') {
      const message = this.#ownRequest(request, options.parsedBody, options.classified);
      if (message !== undefined && (this.#calls.has(message.id) || this.#innerCalls.has(message.id)))
        return legacyJsonAnswer(requestIdInUse(message.id, 'session'), this.sessionId!);
      if (message !== undefined) return this.#answer(request, message, options.authInfo);
    } else if (request.method === 'GET' && this.#context.events !== undefined && this.#streams.size > 0) {
      const resumed = await this.#resume(request);
      if (resumed !== undefined) return resumed;
    }
    const { classified: _, ...sdk } = options;
    return this.#inner.handleRequest(request, sdk);
  }

  #answer(request: Request, message: JSONRPCMessage & { id: RequestId }, authInfo: AuthInfo | undefined) {
    const version = request.headers.get('mcp-protocol-version') ?? DEFAULT_NEGOTIATED_PROTOCOL_VERSION;
    // As the SDK decides per POST: priming events and `closeSSE` only with an event store and a client that reads them.
    const primes = this.#context.events !== undefined && this.#supported(version) && acceptsPriming(version);
    const call = new CallAnswer(this.#context, primes);
    this.#calls.set(message.id, call);
    this.onmessage?.(message, {
      authInfo,
      request,
      ...(primes
        ? { closeSSEStream: () => call.closeStream(), closeStandaloneSSEStream: () => this.closeStandaloneSSEStream() }
        : {}),
    } as never);
    return call.response;
  }

  /** The POST's message when it is one request this transport answers itself, with the SDK's checks passed. */
  #ownRequest(
    request: Request,
    body: unknown,
    classified?: Classified,
  ): (JSONRPCMessage & { id: RequestId }) | undefined {
    if (this.#closed || this.sessionId === undefined || typeof body !== 'object' || body === null) return undefined;
    const { method, id } = body as { method?: unknown; id?: unknown };
    if (typeof method !== 'string' || method === 'initialize' || id === undefined) return undefined;
    const accept = request.headers.get('accept');
    if (accept === null || !accept.includes('application/json') || !accept.includes('text/event-stream'))
      return undefined;
    if (!isJsonContentType(request.headers.get('content-type'))) return undefined;
    const sessionId = classified === undefined ? request.headers.get('mcp-session-id') : classified.sessionId;
    if (sessionId !== this.sessionId) return undefined;
    const version = request.headers.get('mcp-protocol-version');
    if (version !== null && !this.#supported(version)) return undefined;
    // A plain request passes the SDK's schema for certain; anything else is parsed by it (and refused as it refuses).
    if (classified?.plain ?? isPlainRequest(body)) return body as JSONRPCMessage & { id: RequestId };
    try {
      const message = parseJSONRPCMessage(body);
      return 'method' in message && 'id' in message ? (message as JSONRPCMessage & { id: RequestId }) : undefined;
    } catch {
      return undefined;
    }
  }

  /** A `Last-Event-ID` GET of a stream of a call answered here that has not ended. */
  async #resume(request: Request): Promise<Response | undefined> {
    const last = request.headers.get('last-event-id');
    if (last === null || last === '') return undefined;
    const accept = request.headers.get('accept');
    if (accept === null || !accept.includes('text/event-stream')) return undefined;
    if (request.headers.get('mcp-session-id') !== this.sessionId) return undefined;
    const version = request.headers.get('mcp-protocol-version');
    if (version !== null && !this.#supported(version)) return undefined;
    const streamId = await this.#events!.getStreamIdForEventId(last);
    const call = streamId === undefined ? undefined : this.#streams.get(streamId);
    return call?.resume(last);
  }

  #cancelled(id: RequestId | undefined): void {
    if (id !== undefined) this.#innerCalls.delete(id);
    const call = id === undefined ? undefined : this.#calls.get(id);
    if (call === undefined) return;
    this.#calls.delete(id!);
    call.abandon();
  }

  #supported(version: string): boolean {
    return this.#versions.includes(version);
  }
}
