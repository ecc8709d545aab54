import type { Cluster } from 'ioredis';
import { systemClock, type Clock } from '../../_internal/clock.js';
import { layoutOf } from './clusterLayout.js';
import type { RedisClient } from './redisClient.js';
import { connectLazy } from './FirstConnection.js';

/** What a {@link BusSubscriber} subscribes to, and where it reports. */
export interface BusSubscriberOptions {
  readonly subscriber: RedisClient;
  /** Sharded pub/sub (`SSUBSCRIBE`) on a cluster; classic `SUBSCRIBE` on one node. */
  readonly sharded: boolean;
  /** The channels subscribed for as long as the bus is open. */
  readonly channels: readonly string[];
  readonly onMessage: (channel: string, raw: string) => void;
  readonly onError: (error: unknown) => void;
  /** The timers of re-subscribe delays and of the wait for a watched channel (default: real, unref'd). */
  readonly clock?: Clock | undefined;
}

/**
 * The subscriber connection of a `RedisEventBus`: subscribes its channels, and again after a reconnect, a
 * failure, or (on a cluster) a slot that moved; on a cluster also the session channels watched while this
 * process holds their sessions live.
 */
export class BusSubscriber {
  readonly #subscriber: RedisClient;
  readonly #sharded: boolean;
  readonly #channels: ReadonlySet<string>;
  readonly #onMessage: BusSubscriberOptions['onMessage'];
  readonly #onError: BusSubscriberOptions['onError'];
  readonly #clock: Clock;
  /** Watched channels (how many watchers each), sharded mode only. */
  readonly #watched = new Map<string, { count: number; subscribed: Promise<void> }>();
  readonly #ready: Promise<void>;
  #markReady: () => void = () => {};
  #closed = false;
  /** Sharded mode: which master owned which slots when the subscriptions were last made. */
  #layout = '';

  constructor(options: BusSubscriberOptions) {
    this.#subscriber = options.subscriber;
    this.#sharded = options.sharded;
    this.#channels = new Set(options.channels);
    this.#onMessage = options.onMessage;
    this.#onError = options.onError;
    this.#clock = options.clock ?? systemClock;
    this.#ready = new Promise((resolve) => (this.#markReady = resolve));
    this.#subscriber.on(this.#sharded ? 'smessage' : 'message', this.#onMessage);
    // ioredis re-subscribes by itself after a reconnect, but only to channels whose SUBSCRIBE succeeded.
    this.#subscriber.on('ready', this.#subscribe);
    // A master that gives a slot away drops the sharded subscriptions of its channels: subscribe again
    // (on the new owner) whenever the cluster client learns a new slot layout.
    if (this.#sharded) this.#subscriber.on('refresh', this.#onRefresh);
    this.#subscribe();
  }

  /** Resolves once every channel of the bus is subscribed. */
  ready(): Promise<void> {
    return this.#ready;
  }

  /** True while `channel` is watched. */
  watching(channel: string): boolean {
    return this.#watched.has(channel);
  }

  /**
   * Subscribes `channel` (sharded mode) until the function this resolves is called (calls nest). Resolves once
   * subscribed, or after the subscription failed or took over a second: delivery is best effort.
   */
  async watch(channel: string): Promise<() => void> {
    let entry = this.#watched.get(channel);
    if (entry !== undefined) entry.count++;
    else {
      entry = { count: 1, subscribed: Promise.resolve() };
      this.#watched.set(channel, entry);
      if (!this.#closed) entry.subscribed = this.#ssubscribe(channel).then(() => {});
    }
    await Promise.race([
      entry.subscribed,
      new Promise((resolve) => this.#clock.setTimeout(() => resolve(undefined), 1_000)),
    ]);
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

  /** Stops receiving: unsubscribes every channel; the client stays open. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#subscriber.off(this.#sharded ? 'smessage' : 'message', this.#onMessage);
    this.#subscriber.off('ready', this.#subscribe);
    this.#subscriber.off('refresh', this.#onRefresh);
    if (this.#sharded) {
      const channels = [...this.#channels, ...this.#watched.keys()];
      this.#watched.clear();
      // One SUNSUBSCRIBE per channel: channels of different slots live on different shards.
      await Promise.all(channels.map((c) => this.#subscriber.sunsubscribe(c).catch(() => {})));
    } else await this.#subscriber.unsubscribe(...this.#channels).catch(() => {});
  }

  readonly #subscribe = (): void => {
    if (this.#closed) return;
    // Not connected yet (or not any more): the 'ready' event subscribes; a command now would only fail.
    if (this.#subscriber.status !== 'ready') return connectLazy(this.#subscriber);
    if (!this.#sharded) {
      this.#subscriber.subscribe(...this.#channels).then(
        () => this.#markReady(),
        (error) => {
          this.#onError(error);
          // Not connected: the 'ready' event subscribes. Connected but failed (a timeout): try again.
          if (this.#subscriber.status === 'ready' && !this.#closed) this.#clock.setTimeout(this.#subscribe, 500);
        },
      );
      return;
    }
    this.#layout = layoutOf(this.#subscriber as Cluster);
    void Promise.all([...this.#channels].map((channel) => this.#ssubscribe(channel))).then(
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
      !this.#closed && (this.#channels.has(channel) || this.#watched.has(channel));
      delay = Math.min(delay * 2, 2_000)
    ) {
      // Not connected: the 'ready' event subscribes every wanted channel.
      if (this.#subscriber.status !== 'ready') return false;
      try {
        await this.#subscriber.ssubscribe(channel);
        return true;
      } catch (error) {
        this.#onError(error);
        // Not connected: the 'ready' event subscribes every wanted channel again.
        if (this.#subscriber.status !== 'ready') return false;
      }
      await new Promise((resolve) => this.#clock.setTimeout(() => resolve(undefined), delay));
    }
    return false;
  }

  readonly #onRefresh = (): void => {
    if (layoutOf(this.#subscriber as Cluster) !== this.#layout) this.#subscribe();
  };
}
