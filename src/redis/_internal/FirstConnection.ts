import type { RedisClient } from './redisClient.js';

/** How many publishes wait for the publisher's first connection; past it the oldest are dropped. */
const PENDING_LIMIT = 1_000;

/**
 * The publisher side of a `RedisEventBus` until its client first connects: a client built with `lazyConnect`
 * (connected here on the first publish) or still connecting holds the bus's publishes, in order and at most
 * {@link PENDING_LIMIT} (the oldest dropped and reported once), and sends them when it is ready; a client
 * without an offline queue would reject each at once. Once the client has been ready, publishes go straight
 * to it, and a failure (Redis went away) is reported: delivery is best effort.
 */
export class FirstConnection {
  readonly #client: RedisClient;
  readonly #onError: (error: unknown) => void;
  #pending: Array<() => void> | undefined;
  #dropped = 0;

  constructor(client: RedisClient, onError: (error: unknown) => void) {
    this.#client = client;
    this.#onError = onError;
    if (client.status !== 'ready') {
      this.#pending = [];
      client.once('ready', this.#flush);
    }
  }

  /** Runs `send` now, or once the client first connects. */
  run(send: () => void): void {
    const pending = this.#pending;
    if (pending === undefined) return send();
    if (pending.length === PENDING_LIMIT) {
      pending.shift();
      this.#dropped++;
    }
    pending.push(send);
    connectLazy(this.#client);
  }

  /** Drops what still waits (the bus is closing). */
  close(): void {
    this.#pending = undefined;
    this.#client.off('ready', this.#flush);
  }

  readonly #flush = (): void => {
    const pending = this.#pending ?? [];
    this.#pending = undefined;
    if (this.#dropped > 0) {
      this.#onError(
        new Error(
          `${this.#dropped} notification(s) were dropped while the bus waited for its publisher to connect (at most ${PENDING_LIMIT} wait).`,
        ),
      );
    }
    for (const send of pending) send();
  };
}

/**
 * Starts connecting a client built with `lazyConnect` that has not connected yet; a client already connecting
 * (or reconnecting) is left alone. A failed attempt is reported on the client's own `error` event.
 */
export function connectLazy(client: RedisClient): void {
  if (client.status === 'wait') client.connect().catch(() => {});
}
