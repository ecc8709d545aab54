import { clockOf, type Clock, type Timer } from '../_internal/clock.js';
import { JsonRpcCode, WireError } from '../errors/WireError.js';
import { canonicalUri, SubscriptionManager } from './SubscriptionManager.js';

/** Options of legacy resource subscriptions (attach option `resourceSubscriptions`). */
export interface ResourceSubscriptionOptions {
  /** A subscription that got no update for this long is dropped (30 min). */
  idleMs?: number;
  /** Most subscriptions one session may hold (1,000); one more is refused with -32602. */
  maxPerSession?: number;
  /**
   * Most subscriptions all sessions of this attachment may hold together (50,000); one more is refused
   * with `-32603` and a retry hint, so that many sessions at their own cap cannot exhaust memory.
   */
  maxTotal?: number;
  /**
   * Most subscriptions all sessions of one principal (or, anonymous, one peer) may hold together (5,000);
   * one more is refused with -32602, so that one principal opening many sessions cannot take the total.
   */
  maxPerPrincipal?: number;
  /** How often idle subscriptions are swept while any exist (a quarter of `idleMs`, at least 10 ms). */
  sweepEveryMs?: number;
  /** The clock of idle expiry and of the sweep's timer (default `Date.now`; the attach option `now` when served). */
  now?: () => number;
}

/** Sends one notification to a session's client. */
export type NotificationSender = (notification: { method: string; params?: Record<string, unknown> }) => Promise<void>;

/**
 * Legacy `resources/subscribe` for every session of one registry and options: the bookkeeping of a
 * {@link SubscriptionManager} (validated, canonical URIs of registered resources; idempotent; idle expiry)
 * plus how to reach each session, so that {@link publish} sends `notifications/resources/updated` to the
 * subscribers of a URI and to nobody else. While any subscription exists, an unref'd timer sweeps idle
 * ones every `sweepEveryMs`, so an idle subscription expires on time by itself (it never keeps a process alive).
 */
export class ResourceSubscriptions {
  readonly #manager: SubscriptionManager;
  readonly #senders = new Map<string, NotificationSender>();
  readonly #max: number;
  readonly #maxTotal: number;
  readonly #maxPerPrincipal: number;
  readonly #sweepEveryMs: number;
  readonly #clock: Clock;
  #timer: Timer | undefined;

  constructor(exists: (uri: string) => boolean, options: ResourceSubscriptionOptions = {}) {
    const idleMs = options.idleMs ?? 30 * 60_000;
    this.#manager = new SubscriptionManager({
      exists,
      idleMs,
      ...(options.now !== undefined ? { now: options.now } : {}),
    });
    this.#max = options.maxPerSession ?? 1_000;
    this.#maxTotal = options.maxTotal ?? 50_000;
    this.#maxPerPrincipal = options.maxPerPrincipal ?? 5_000;
    this.#sweepEveryMs = Math.max(10, options.sweepEveryMs ?? Math.floor(idleMs / 4));
    this.#clock = clockOf(options.now);
  }

  /**
   * `resources/subscribe` of `session`, counted for `owner` (its principal, or its peer when anonymous; the
   * session by default): throws a {@link WireError} for a malformed or unknown URI, or past a budget. O(1):
   * idle subscriptions are swept by the timer, never by a request.
   */
  subscribe(session: string, uri: unknown, send: NotificationSender, owner: string = session): void {
    const canonical = canonicalUri(uri);
    if (!this.#manager.has(session, canonical)) {
      if (this.#manager.countFor(session) >= this.#max) {
        throw new WireError(
          JsonRpcCode.InvalidParams,
          `Too many resource subscriptions: this session already holds ${this.#max}. Unsubscribe from resources you no longer watch first.`,
          { uri: canonical },
        );
      }
      if (this.#manager.countForOwner(owner) >= this.#maxPerPrincipal) {
        throw new WireError(
          JsonRpcCode.InvalidParams,
          `Too many resource subscriptions: your sessions already hold ${this.#maxPerPrincipal} together. Unsubscribe from resources you no longer watch, or close sessions you no longer use.`,
          { uri: canonical, budget: 'principal', max: this.#maxPerPrincipal },
        );
      }
      if (this.#manager.size >= this.#maxTotal) {
        throw new WireError(
          JsonRpcCode.InternalError,
          `The server holds its most resource subscriptions (${this.#maxTotal}) for all clients: subscribe again in a minute, or read the resource instead of subscribing.`,
          { uri: canonical, retryAfterMs: 60_000 },
        );
      }
    }
    this.#manager.subscribe(session, canonical, owner);
    this.#senders.set(session, send);
    this.#arm();
  }

  /** `resources/unsubscribe` of `session` (idempotent). */
  unsubscribe(session: string, uri: unknown): void {
    this.#manager.unsubscribe(session, uri);
    if (this.#manager.countFor(session) === 0) this.#senders.delete(session);
  }

  /** Drops every subscription of a session that ended. */
  release(session: string): void {
    this.#manager.releaseSession(session);
    this.#senders.delete(session);
  }

  /**
   * Sends `notifications/resources/updated` for `uri` to every session subscribed to it (and accepted by
   * `only`, when given); resolves to the number of sessions notified. A closed session is skipped.
   */
  async publish(uri: string, only?: (session: string) => boolean): Promise<number> {
    const targets = this.#manager.subscribers(uri).filter((s) => only === undefined || only(s));
    let sent = 0;
    await Promise.all(
      targets.map(async (session) => {
        const send = this.#senders.get(session);
        if (send === undefined) return;
        try {
          await send({ method: 'notifications/resources/updated', params: { uri } });
          sent++;
        } catch {
          // The session's connection is gone; it is released when its server closes.
        }
      }),
    );
    return sent;
  }

  /**
   * The resource at `uri` was deleted: its subscribers get a last `notifications/resources/updated` (a
   * read now answers "Resource not found") and their subscriptions end. `only` limits it to some sessions
   * (one attachment's).
   */
  async retire(uri: string, only?: (session: string) => boolean): Promise<number> {
    const sent = await this.publish(uri, only);
    for (const session of this.#manager.subscribers(uri))
      if (only === undefined || only(session)) this.unsubscribe(session, uri);
    return sent;
  }

  /** Number of (session, URI) subscriptions. */
  get size(): number {
    return this.#manager.size;
  }

  /** Drops subscriptions idle longer than `idleMs` (the timer calls it). */
  sweep(): void {
    this.#manager.sweep();
    for (const session of [...this.#senders.keys()])
      if (this.#manager.countFor(session) === 0) this.#senders.delete(session);
    if (this.#manager.size === 0) this.dispose();
  }

  /** Stops the sweeper (it restarts with the next subscription). */
  dispose(): void {
    this.#timer?.cancel();
    this.#timer = undefined;
  }

  #arm(): void {
    if (this.#timer !== undefined) return;
    this.#timer = this.#clock.setInterval(() => this.sweep(), this.#sweepEveryMs);
  }
}
