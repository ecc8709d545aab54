import { randomUUID } from 'node:crypto';
import type { ServerEvent, ServerEventBus } from '@modelcontextprotocol/server';
import { clockOf } from '../_internal/clock.js';
import { FusionError } from '../errors/FusionError.js';
import type { SessionBus, SessionNotification } from '../session/SessionBus.js';
import type { TaskBus } from '../tasks/TaskBus.js';
import { OperatorLog } from '../logging/OperatorLog.js';
import type { Logger } from '../logging/types.js';
import { BusSubscriber } from './_internal/BusSubscriber.js';
import { FirstConnection } from './_internal/FirstConnection.js';
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
   * Channel prefix (default `fusion:bus:`, no braces): on one node `<prefix>events` (listen streams),
   * `<prefix>sessions` (legacy sessions) and `<prefix>tasks` (task cancels); on a cluster
   * `<prefix>events:{e<n>}` (`eventShards` of them), `<prefix>session:{<Mcp-Session-Id>}` per session and
   * `<prefix>tasks:{t}`.
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
  /**
   * The clock of the subscriber's retry delays (default `Date.now` with real, unref'd timers); a test passes
   * `createClock().now` of `mcp-fusion/testing` to drive them.
   */
  now?: () => number;
}

type EventListener = (event: ServerEvent) => void;
type SessionListener = (sessionId: string, notification: SessionNotification) => void;
type Message = { o?: string; e?: ServerEvent; s?: string; n?: SessionNotification; t?: string };

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
 * The bus may be created before its clients connect (still connecting, `lazyConnect`, or Redis not up
 * yet, with or without an offline queue): it subscribes once the subscriber is ready, and holds what is
 * published until the publisher first is (at most 1,000 messages), reporting nothing meanwhile.
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
  /** Holds publishes until the publisher first connects (it may be created before it connects). */
  readonly #firstConnection: FirstConnection;
  readonly #subscriber: BusSubscriber;
  readonly #sharded: boolean;
  readonly #prefix: string;
  /** The listen-stream event channels: one on one node, `eventShards` on a cluster. */
  readonly #events: readonly string[];
  readonly #eventSet: ReadonlySet<string>;
  readonly #sessionChannel: string;
  readonly #onError: (error: unknown) => void;
  readonly #eventListeners = new Set<EventListener>();
  readonly #sessionListeners = new Set<SessionListener>();
  /** Task cancels: `<prefix>tasks` on one node, the sharded `<prefix>tasks:{t}` on a cluster. */
  readonly #taskChannel: string;
  readonly #cancelListeners = new Set<(taskId: string) => void>();
  #closed = false;

  /** The legacy side of this bus, as the `sessionBus` option takes it. */
  readonly sessions: SessionBus = {
    publish: (sessionId, notification) => this.publishSession(sessionId, notification),
    subscribe: (listener) => this.subscribeSession(listener),
    watch: (sessionId) => this.watchSession(sessionId),
  };

  /** The task side of this bus (cancels reach the instance running the task), as the `tasks.bus` option takes it. */
  readonly tasks: TaskBus = {
    publishCancel: (taskId) => {
      for (const listener of this.#cancelListeners) this.#call(() => listener(taskId));
      this.#send(this.#taskChannel, { o: this.#origin, t: taskId });
    },
    subscribeCancel: (listener) => this.#add(this.#cancelListeners, listener),
  };

  constructor(options: RedisEventBusOptions) {
    this.#publisher = options.publisher;
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
    this.#taskChannel = this.#sharded ? `${this.#prefix}tasks:{t}` : `${this.#prefix}tasks`;
    this.#onError = options.onError ?? busLogger(options.logger);
    this.#firstConnection = new FirstConnection(options.publisher, this.#onError);
    this.#subscriber = new BusSubscriber({
      subscriber: options.subscriber,
      sharded: this.#sharded,
      channels: this.#sharded
        ? [...this.#events, this.#taskChannel]
        : [...this.#events, this.#sessionChannel, this.#taskChannel],
      onMessage: this.#onMessage,
      onError: this.#onError,
      clock: clockOf(options.now),
    });
  }

  /** Resolves once the bus receives from other processes (its SUBSCRIBE succeeded). */
  ready(): Promise<void> {
    return this.#subscriber.ready();
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
    return this.#sharded ? this.#subscriber.watch(this.#channelOf(sessionId)) : () => {};
  }

  /** Stops receiving and drops every listener; the clients stay open (they are yours). */
  async close(): Promise<void> {
    this.#closed = true;
    this.#firstConnection.close();
    this.#eventListeners.clear();
    this.#sessionListeners.clear();
    this.#cancelListeners.clear();
    await this.#subscriber.close();
  }

  readonly #onMessage = (channel: string, raw: string): void => {
    const session = channel === this.#sessionChannel || (this.#sharded && this.#subscriber.watching(channel));
    const events = this.#eventSet.has(channel);
    const tasks = channel === this.#taskChannel;
    if (!events && !session && !tasks) return;
    let message: Message;
    try {
      message = JSON.parse(raw);
    } catch (error) {
      this.#onError(error);
      return;
    }
    if (message.o === this.#origin) return;
    if (tasks && typeof message.t === 'string') {
      const id = message.t;
      for (const listener of this.#cancelListeners) this.#call(() => listener(id));
    } else if (events && message.e !== undefined) {
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
    if (!this.#closed) this.#firstConnection.run(() => this.#publish(channel, message));
  }

  #publish(channel: string, message: object): void {
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
