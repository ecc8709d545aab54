import {
  SUPPORTED_PROTOCOL_VERSIONS,
  type EventStore as SdkEventStore,
  type JSONRPCMessage,
} from '@modelcontextprotocol/server';
import { streamOfEventId, type EventStore, type ReplayResult } from '../../session/EventStore.js';
import type { SessionNotification } from '../../session/SessionBus.js';
import type { EventOwner } from '../../session/StreamHolds.js';

import { httpError } from '../http/httpErrors.js';
import { acceptsPriming, primingFrame, withPrefix } from '../http/sseFrames.js';
import { carryNotes } from '../../runtime/frontNotes.js';

/** `_meta` key the session bus wrapper stamps on a notification: the event's identity across instances (never sent). */
export const EVENT_KEY = 'io.mcp-fusion/event';
/** The SDK transport's name of a session's standalone GET stream. */
export const GET_STREAM = '_GET_stream';

/**
 * One legacy session's view of the {@link EventStore}, in the shape the SDK transport takes (`eventStore`):
 * its streams are named after the session, so an event id of another session replays nothing here. A
 * notification that reached this session through the session bus carries an event key; every instance
 * that holds the session live records it under that key, so the store keeps it once. What the store keeps
 * of the session's streams is held on the ledger for the session's owner (`owner`).
 */
export class SessionEvents implements SdkEventStore {
  readonly #store: EventStore;
  readonly #prefix: string;
  readonly #owner: EventOwner | undefined;
  /** Keys of bus notifications about to be sent on the GET stream, by message. */
  readonly #expected = new Map<string, string[]>();

  constructor(store: EventStore, sessionId: string, owner?: EventOwner) {
    this.#store = store;
    this.#prefix = `s:${sessionId}/`;
    this.#owner = owner;
  }

  /** The stream name (in the store) of the SDK's stream `streamId`. */
  streamOf(streamId: string): string {
    return this.#prefix + streamId;
  }

  /** Strips the event key from a bus notification and remembers it for when the transport stores it. */
  expect(notification: SessionNotification): SessionNotification {
    const meta = notification.params?._meta as Record<string, unknown> | undefined;
    const key = meta?.[EVENT_KEY];
    if (typeof key !== 'string') return notification;
    const { [EVENT_KEY]: _, ...rest } = meta!;
    const { _meta: __, ...params } = notification.params!;
    const sent: SessionNotification = {
      method: notification.method,
      params: Object.keys(rest).length > 0 ? { ...params, _meta: rest } : params,
    };
    const id = identity(sent);
    const queue = this.#expected.get(id);
    if (queue === undefined) this.#expected.set(id, [key]);
    else queue.push(key);
    return sent;
  }

  /** Forgets a key expected for a notification that was not sent after all. */
  unexpect(notification: SessionNotification): void {
    const id = identity(notification);
    const queue = this.#expected.get(id);
    queue?.shift();
    if (queue?.length === 0) this.#expected.delete(id);
  }

  /**
   * Before the SDK serves a GET with `Last-Event-ID`: a refusal that says why when the events after that id
   * are not stored (any more), so that the client starts over instead of missing them silently; otherwise
   * the session's previous GET stream, which the resumed one replaces, is closed.
   */
  async refuse(request: Request, transport: { closeStandaloneSSEStream(): void }): Promise<Response | undefined> {
    const last = request.headers.get('last-event-id');
    if (last === null || last === '') return undefined;
    const replay = await this.after(last);
    if (replay.found) {
      // The client resumes its GET stream: the old one is dead on its side even if this server has not
      // noticed yet (no FIN from a cut network), and the SDK would answer 409 while it is registered.
      if (replay.stream === this.streamOf(GET_STREAM)) transport.closeStandaloneSSEStream();
      return undefined;
    }
    const why =
      replay.reason === 'evicted'
        ? 'the events after it were evicted (the stream outgrew its event budget)'
        : 'it names no stored stream of this session (unknown, or expired)';
    return httpError(
      replay.reason === 'evicted' ? 'resumeEvicted' : 'resumeUnknown',
      `Cannot resume: Last-Event-ID ${JSON.stringify(last)} cannot be replayed: ${why}. Open the stream again without Last-Event-ID and list tools, prompts and resources again.`,
    );
  }

  /**
   * After the SDK opened a GET stream: a priming event first, so that a client whose stream drops before any
   * event has an id to resume from. A new stream's priming event is stored; a resumed stream repeats the
   * client's own Last-Event-ID. Clients before 2025-11-25 get none (they would read the empty data as a message).
   */
  async prime(request: Request, response: Response, retryMs: number | undefined): Promise<Response> {
    if (!response.ok || !acceptsPriming(request.headers.get('mcp-protocol-version'))) return response;
    const last = request.headers.get('last-event-id');
    const id =
      last !== null && last !== ''
        ? last
        : await this.#store.append(this.streamOf(GET_STREAM), {}, undefined, this.#owner);
    return withPrefix(response, primingFrame(id, retryMs));
  }

  /**
   * A POST whose `MCP-Protocol-Version` names an older revision than the session negotiated (2025-11-25 or
   * later): the request as if it named the negotiated one, since the SDK primes a stream (and lets a handler
   * close it for polling) by that header, and this client already showed it reads empty-data events. A
   * revision the SDK does not support is left as it is: the SDK refuses it (400), as it would without a store.
   */
  static aligned(request: Request, negotiated: string | undefined): Request {
    const claimed = request.headers.get('mcp-protocol-version');
    if (request.method !== 'POST' || claimed === null || !acceptsPriming(negotiated) || acceptsPriming(claimed))
      return request;
    if (!SUPPORTED_PROTOCOL_VERSIONS.includes(claimed)) return request;
    const headers = new Headers(request.headers);
    headers.set('mcp-protocol-version', negotiated!);
    const aligned = new Request(request.url, { method: request.method, headers, signal: request.signal });
    carryNotes(request, aligned); // what the front found for its messages reaches their handlers
    return aligned;
  }

  storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    let key: string | undefined;
    if (streamId === GET_STREAM && 'method' in message) {
      const id = identity(message as SessionNotification);
      const queue = this.#expected.get(id);
      key = queue?.shift();
      if (queue?.length === 0) this.#expected.delete(id);
    }
    return this.#store.append(this.streamOf(streamId), message, key, this.#owner);
  }

  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    const stream = streamOfEventId(eventId);
    return stream?.startsWith(this.#prefix) === true ? stream.slice(this.#prefix.length) : undefined;
  }

  /** The events after `eventId` if it is one of this session's (`unknown` otherwise). */
  async after(eventId: string): Promise<ReplayResult> {
    if ((await this.getStreamIdForEventId(eventId)) === undefined) return { found: false, reason: 'unknown' };
    return this.#store.after(eventId);
  }

  async replayEventsAfter(
    eventId: string,
    { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> },
  ): Promise<string> {
    const replay = await this.after(eventId);
    if (!replay.found) throw new Error(`Last-Event-ID ${eventId} cannot be replayed (${replay.reason})`);
    // Priming events (`{}`) hold a place in the stream; only messages are sent again.
    for (const event of replay.events)
      if ('jsonrpc' in event.message) await send(event.id, event.message as JSONRPCMessage);
    return replay.stream.slice(this.#prefix.length);
  }
}

function identity(message: SessionNotification): string {
  return `${message.method}\n${JSON.stringify(message.params ?? {})}`;
}
