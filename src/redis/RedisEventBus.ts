import { randomUUID } from 'node:crypto';
import type { ServerEvent, ServerEventBus } from '@modelcontextprotocol/server';
import type { Redis } from 'ioredis';
import type { SessionBus, SessionNotification } from '../session/SessionBus.js';

/** Options of {@link RedisEventBus}. */
export interface RedisEventBusOptions {
  /** Publishes events (any client; it may be shared with the stores). */
  publisher: Redis;
  /** A client for this bus alone: Redis puts a subscribed connection in subscriber mode. */
  subscriber: Redis;
  /** Channel prefix (default `fusion:bus:`): `<prefix>events` (listen streams), `<prefix>sessions` (legacy sessions). */
  prefix?: string;
  /** Publish, subscribe and listener failures (default: ignored; delivery is best effort). */
  onError?: (error: unknown) => void;
}

type EventListener = (event: ServerEvent) => void;
type SessionListener = (sessionId: string, notification: SessionNotification) => void;

/**
 * The cross-instance notification bus over Redis pub/sub. It is the SDK's `ServerEventBus` for modern
 * `subscriptions/listen` streams (pass it to every instance: `createFusionApp(registry, { bus })`), and it
 * carries legacy per-session notifications to the instance that holds the session's GET stream
 * (`publishSession` / `subscribeSession`, or the {@link RedisEventBus.sessions} view).
 *
 * Listeners in this process get an event synchronously when it is published here (also while Redis is
 * down); other processes get it through Redis, which skips its own echo. Delivery is at most once, like
 * the SDK's own: an event published while Redis is unreachable reaches this process only.
 * @example
 * const bus = new RedisEventBus({ publisher: redis, subscriber: redis.duplicate() });
 * await bus.ready();
 * startServer(registry, { bus });
 * @see docs/scaling.md
 */
export class RedisEventBus implements ServerEventBus {
  readonly #origin = randomUUID();
  readonly #publisher: Redis;
  readonly #subscriber: Redis;
  readonly #events: string;
  readonly #sessionChannel: string;
  readonly #onError: (error: unknown) => void;
  readonly #eventListeners = new Set<EventListener>();
  readonly #sessionListeners = new Set<SessionListener>();
  readonly #ready: Promise<void>;
  #markReady: () => void = () => {};
  #closed = false;

  /** The legacy side of this bus, as the `sessionBus` option takes it. */
  readonly sessions: SessionBus = {
    publish: (sessionId, notification) => this.publishSession(sessionId, notification),
    subscribe: (listener) => this.subscribeSession(listener),
  };

  constructor(options: RedisEventBusOptions) {
    this.#publisher = options.publisher;
    this.#subscriber = options.subscriber;
    const prefix = options.prefix ?? 'fusion:bus:';
    this.#events = `${prefix}events`;
    this.#sessionChannel = `${prefix}sessions`;
    this.#onError = options.onError ?? (() => {});
    this.#ready = new Promise((resolve) => (this.#markReady = resolve));
    this.#subscriber.on('message', this.#onMessage);
    // ioredis re-subscribes by itself after a reconnect, but only to channels whose SUBSCRIBE succeeded.
    this.#subscriber.on('ready', this.#subscribe);
    this.#subscribe();
  }

  /** Resolves once the bus receives from other processes (its SUBSCRIBE succeeded). */
  ready(): Promise<void> {
    return this.#ready;
  }

  /** Publishes a listen-stream event to every instance (`handler.notify.*` calls this). */
  publish(event: ServerEvent): void {
    for (const listener of this.#eventListeners) this.#call(() => listener(event));
    this.#send(this.#events, { o: this.#origin, e: event });
  }

  subscribe(listener: EventListener): () => void {
    return this.#add(this.#eventListeners, listener);
  }

  /** Publishes a notification for one legacy session to every instance. Never throws. */
  publishSession(sessionId: string, notification: SessionNotification): void {
    for (const listener of this.#sessionListeners) this.#call(() => listener(sessionId, notification));
    this.#send(this.#sessionChannel, { o: this.#origin, s: sessionId, n: notification });
  }

  subscribeSession(listener: SessionListener): () => void {
    return this.#add(this.#sessionListeners, listener);
  }

  /** Stops receiving and drops every listener; the clients stay open (they are yours). */
  async close(): Promise<void> {
    this.#closed = true;
    this.#eventListeners.clear();
    this.#sessionListeners.clear();
    this.#subscriber.off('message', this.#onMessage);
    this.#subscriber.off('ready', this.#subscribe);
    await this.#subscriber.unsubscribe(this.#events, this.#sessionChannel).catch(() => {});
  }

  readonly #subscribe = (): void => {
    if (this.#closed) return;
    this.#subscriber.subscribe(this.#events, this.#sessionChannel).then(() => this.#markReady(), this.#onError);
  };

  readonly #onMessage = (channel: string, raw: string): void => {
    if (channel !== this.#events && channel !== this.#sessionChannel) return;
    let message: { o?: string; e?: ServerEvent; s?: string; n?: SessionNotification };
    try {
      message = JSON.parse(raw);
    } catch (error) {
      this.#onError(error);
      return;
    }
    if (message.o === this.#origin) return;
    if (channel === this.#events && message.e !== undefined) {
      const event = message.e;
      for (const listener of this.#eventListeners) this.#call(() => listener(event));
    } else if (typeof message.s === 'string' && message.n !== undefined) {
      const { s, n } = message;
      for (const listener of this.#sessionListeners) this.#call(() => listener(s, n));
    }
  };

  #send(channel: string, message: object): void {
    if (this.#closed) return;
    try {
      this.#publisher.publish(channel, JSON.stringify(message)).catch(this.#onError);
    } catch (error) {
      this.#onError(error);
    }
  }

  #add<L>(set: Set<L>, listener: L): () => void {
    set.add(listener);
    return () => void set.delete(listener);
  }

  #call(fn: () => void): void {
    try {
      fn();
    } catch (error) {
      this.#onError(error);
    }
  }
}
