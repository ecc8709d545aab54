import { randomUUID } from 'node:crypto';
import type { ServerEvent, ServerEventBus } from '@modelcontextprotocol/server';
import type { Cluster } from 'ioredis';
import { FusionError } from '../errors/FusionError.js';
import type { SessionBus, SessionNotification } from '../session/SessionBus.js';
import { OperatorLog } from '../logging/OperatorLog.js';
import type { Logger } from '../logging/types.js';
import { layoutOf } from './_internal/clusterLayout.js';
import { eventChannels, shardOf } from './_internal/eventShards.js';
import { checkPrefix, hashTag, isCluster, type RedisClient } from './_internal/redisClient.js';

/** Options of {@link RedisEventBus}. */
export interface RedisEventBusOptions {
  /** Publishes events (any client; it may be shared with the stores): a `Redis`, or a `Cluster`. */
  publisher: RedisClient;
  /**
   * A client for this bus alone: Redis puts a subscribed connection in subscriber mode. On a cluster, a
   * `Cluster` built with `shardedSubscribers: true` and a `slotsRefreshInterval` (it may be the publisher
   * itself; `failFastClusterOptions()` sets both), so that subscriptions follow a slot that moved.
   */
  subscriber: RedisClient;
  /**
   * Channel prefix (default `fusion:bus:`, no braces): on one node `<prefix>events` (listen streams) and
   * `<prefix>sessions` (legacy sessions); on a cluster `<prefix>events:{e<n>}` (`eventShards` of them) and
   * `<prefix>session:{<Mcp-Session-Id>}` per session.
   */
  prefix?: string;
  /**
   * On a cluster, how many sharded channels carry listen-stream events (16; 1 to 1,024): an event goes to
   * the channel of its URI (else of its kind), and the channels' slots spread evenly over the slot range, so
   * the events' load spreads over the primaries. Every instance must use the same number.
   */
  eventShards?: number;
  /**
   * Publish, subscribe and listener failures (delivery is best effort: the bus goes on). Default: logged
   * once each at `error`, to `logger` (the default stderr logger, level from `MCP_FUSION_LOG`).
   */
  onError?: (error: unknown) => void;
  /** Where failures are logged when there is no `onError` (a pino-shaped logger; default: stderr). */
  logger?: Logger;
}

type EventListener = (event: ServerEvent) => void;
type SessionListener = (sessionId: string, notification: SessionNotification) => void;
type Message = { o?: string; e?: ServerEvent; s?: string; n?: SessionNotification };

/**
 * The cross-instance notification bus over Redis pub/sub. It is the SDK's `ServerEventBus` for modern
 * `subscriptions/listen` streams (pass it to every instance: `createFusionApp(registry, { bus })`), and it
 * carries legacy per-session notifications to the instance that holds the session's GET stream
 * (`publishSession` / `subscribeSession`, or the {@link RedisEventBus.sessions} view).
 *
 * On one Redis node it uses classic pub/sub: one channel for listen-stream events, one for every
 * session. On a Redis Cluster (a `Cluster` client) it uses sharded pub/sub (`SPUBLISH`/`SSUBSCRIBE`):
 * each legacy session has its own channel in its own hash slot — the slot of its record and workflow
 * state — and an instance subscribes only to the sessions it holds live (`sessions.watch`), so a
 * session's notifications touch one shard instead of being broadcast to every node. Listen-stream events,
 * which every instance listens to, go over `eventShards` sharded channels (16) chosen by the event's URI,
 * so their load spreads over the primaries instead of weighing on one shard.
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
  readonly #publisher: RedisClient;
  readonly #subscriber: RedisClient;
  readonly #sharded: boolean;
  readonly #prefix: string;
  /** The listen-stream event channels: one on one node, `eventShards` on a cluster. */
  readonly #events: readonly string[];
  readonly #eventSet: ReadonlySet<string>;
  readonly #sessionChannel: string;
  readonly #onError: (error: unknown) => void;
  readonly #eventListeners = new Set<EventListener>();
  readonly #sessionListeners = new Set<SessionListener>();
  /** Sharded mode: watched sessions (how many watchers each) by channel. */
  readonly #watched = new Map<string, { id: string; count: number; subscribed: Promise<void> }>();
  readonly #ready: Promise<void>;
  #markReady: () => void = () => {};
  #closed = false;
  /** Sharded mode: which master owned which slots when the subscriptions were last made. */
  #layout = '';

  /** The legacy side of this bus, as the `sessionBus` option takes it. */
  readonly sessions: SessionBus = {
    publish: (sessionId, notification) => this.publishSession(sessionId, notification),
    subscribe: (listener) => this.subscribeSession(listener),
    watch: (sessionId) => this.watchSession(sessionId),
  };

  constructor(options: RedisEventBusOptions) {
    this.#publisher = options.publisher;
    this.#subscriber = options.subscriber;
    this.#sharded = isCluster(options.subscriber) || isCluster(options.publisher);
    if (
      this.#sharded &&
      !(
        isCluster(options.subscriber) &&
        (options.subscriber.options as { shardedSubscribers?: boolean }).shardedSubscribers === true
      )
    ) {
      throw new FusionError(
        'REDIS_BUS_SUBSCRIBER',
        'RedisEventBus on a Redis Cluster needs a subscriber Cluster built with { shardedSubscribers: true } (per-session notifications use sharded pub/sub, SSUBSCRIBE).',
        {},
      );
    }
    this.#prefix = checkPrefix(options.prefix ?? 'fusion:bus:', 'RedisEventBus');
    this.#events = this.#sharded ? eventChannels(this.#prefix, options.eventShards ?? 16) : [`${this.#prefix}events`];
    this.#eventSet = new Set(this.#events);
    this.#sessionChannel = `${this.#prefix}sessions`;
    this.#onError = options.onError ?? busLogger(options.logger);
    this.#ready = new Promise((resolve) => (this.#markReady = resolve));
    this.#subscriber.on(this.#sharded ? 'smessage' : 'message', this.#onMessage);
    // ioredis re-subscribes by itself after a reconnect, but only to channels whose SUBSCRIBE succeeded.
    this.#subscriber.on('ready', this.#subscribe);
    // A master that gives a slot away drops the sharded subscriptions of its channels: subscribe again
    // (on the new owner) whenever the cluster client learns a new slot layout.
    if (this.#sharded) this.#subscriber.on('refresh', this.#onRefresh);
    this.#subscribe();
  }

  /** Resolves once the bus receives from other processes (its SUBSCRIBE succeeded). */
  ready(): Promise<void> {
    return this.#ready;
  }

  /** Publishes a listen-stream event to every instance (`handler.notify.*` calls this). */
  publish(event: ServerEvent): void {
    for (const listener of this.#eventListeners) this.#call(() => listener(event));
    this.#send(this.#events[this.#events.length === 1 ? 0 : shardOf(event, this.#events.length)]!, {
      o: this.#origin,
      e: event,
    });
  }

  subscribe(listener: EventListener): () => void {
    return this.#add(this.#eventListeners, listener);
  }

  /** Publishes a notification for one legacy session to every instance that holds it. Never throws. */
  publishSession(sessionId: string, notification: SessionNotification): void {
    for (const listener of this.#sessionListeners) this.#call(() => listener(sessionId, notification));
    this.#send(this.#sharded ? this.#channelOf(sessionId) : this.#sessionChannel, {
      o: this.#origin,
      s: sessionId,
      n: notification,
    });
  }

  subscribeSession(listener: SessionListener): () => void {
    return this.#add(this.#sessionListeners, listener);
  }

  /**
   * This process holds `sessionId` live: on a cluster, subscribe to its channel until the function this
   * resolves is called (calls nest). Resolves once subscribed (or after the subscription failed or took
   * over a second: delivery is best effort). On one node every session shares one channel: resolves at once.
   */
  async watchSession(sessionId: string): Promise<() => void> {
    if (!this.#sharded) return () => {};
    const channel = this.#channelOf(sessionId);
    let entry = this.#watched.get(channel);
    if (entry !== undefined) entry.count++;
    else {
      entry = { id: sessionId, count: 1, subscribed: Promise.resolve() };
      this.#watched.set(channel, entry);
      if (!this.#closed) entry.subscribed = this.#ssubscribe(channel).then(() => {});
    }
    await Promise.race([entry.subscribed, new Promise((resolve) => setTimeout(resolve, 1_000).unref())]);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const current = this.#watched.get(channel);
      if (current === undefined || --current.count > 0) return;
      this.#watched.delete(channel);
      if (!this.#closed) this.#subscriber.sunsubscribe(channel).catch(this.#onError);
    };
  }

  /** Stops receiving and drops every listener; the clients stay open (they are yours). */
  async close(): Promise<void> {
    this.#closed = true;
    this.#eventListeners.clear();
    this.#sessionListeners.clear();
    this.#subscriber.off(this.#sharded ? 'smessage' : 'message', this.#onMessage);
    this.#subscriber.off('ready', this.#subscribe);
    this.#subscriber.off('refresh', this.#onRefresh);
    if (this.#sharded) {
      const channels = [...this.#events, ...this.#watched.keys()];
      this.#watched.clear();
      // One SUNSUBSCRIBE per channel: channels of different slots live on different shards.
      await Promise.all(channels.map((c) => this.#subscriber.sunsubscribe(c).catch(() => {})));
    } else await this.#subscriber.unsubscribe(...this.#events, this.#sessionChannel).catch(() => {});
  }

  readonly #subscribe = (): void => {
    if (this.#closed) return;
    if (!this.#sharded) {
      this.#subscriber.subscribe(...this.#events, this.#sessionChannel).then(
        () => this.#markReady(),
        (error) => {
          this.#onError(error);
          // Not connected: the 'ready' event subscribes. Connected but failed (a timeout): try again.
          if (this.#subscriber.status === 'ready') this.#retry(this.#subscribe);
        },
      );
      return;
    }
    this.#layout = layoutOf(this.#subscriber as Cluster);
    void Promise.all(this.#events.map((channel) => this.#ssubscribe(channel))).then(
      (subscribed) => subscribed.every(Boolean) && this.#markReady(),
    );
    for (const channel of this.#watched.keys()) void this.#ssubscribe(channel);
  };

  /**
   * SSUBSCRIBE one channel, again after a failure (a timeout under load, a shard that is not connected yet)
   * for as long as it is wanted: ioredis itself re-subscribes only channels whose SSUBSCRIBE succeeded.
   * Resolves true once subscribed; false when it gave up (closed, unwanted, or the cluster is not connected:
   * then its 'ready' event subscribes again), so that a failure never passes for readiness.
   */
  async #ssubscribe(channel: string): Promise<boolean> {
    for (
      let delay = 100;
      !this.#closed && (this.#eventSet.has(channel) || this.#watched.has(channel));
      delay = Math.min(delay * 2, 2_000)
    ) {
      try {
        await this.#subscriber.ssubscribe(channel);
        return true;
      } catch (error) {
        this.#onError(error);
        // Not connected: the 'ready' event subscribes every wanted channel again.
        if (this.#subscriber.status !== 'ready') return false;
      }
      await new Promise((resolve) => setTimeout(resolve, delay).unref());
    }
    return false;
  }

  #retry(task: () => void): void {
    if (!this.#closed) setTimeout(task, 500).unref();
  }

  readonly #onRefresh = (): void => {
    if (layoutOf(this.#subscriber as Cluster) !== this.#layout) this.#subscribe();
  };

  readonly #onMessage = (channel: string, raw: string): void => {
    const session = channel === this.#sessionChannel || (this.#sharded && this.#watched.has(channel));
    const events = this.#eventSet.has(channel);
    if (!events && !session) return;
    let message: Message;
    try {
      message = JSON.parse(raw);
    } catch (error) {
      this.#onError(error);
      return;
    }
    if (message.o === this.#origin) return;
    if (events && message.e !== undefined) {
      const event = message.e;
      for (const listener of this.#eventListeners) this.#call(() => listener(event));
    } else if (session && typeof message.s === 'string' && message.n !== undefined) {
      const { s, n } = message;
      for (const listener of this.#sessionListeners) this.#call(() => listener(s, n));
    }
  };

  #channelOf(sessionId: string): string {
    return `${this.#prefix}session:${hashTag(sessionId)}`;
  }

  #send(channel: string, message: object): void {
    if (this.#closed) return;
    try {
      const payload = JSON.stringify(message);
      (this.#sharded ? this.#publisher.spublish(channel, payload) : this.#publisher.publish(channel, payload)).catch(
        this.#onError,
      );
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

function busLogger(logger: Logger | undefined): (error: unknown) => void {
  const log = new OperatorLog(logger === undefined ? {} : { logger });
  return (error) => log.error('Redis event bus failed', {}, error);
}
