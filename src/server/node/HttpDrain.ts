import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { monotonicClock, type Clock } from '../../_internal/clock.js';
import { JsonRpcCode } from '../../errors/WireError.js';

/** What a request that arrives while the server drains is told (with `503` and `Retry-After`). */
export const drainingMessage = (retryAfterS: number): string =>
  `Service Unavailable: this server instance is shutting down and did not run the request. Send it again in ${retryAfterS} s (Retry-After); behind a load balancer it reaches another instance, and sessions and workflow state kept in a shared store carry over.`;

/**
 * The HTTP side of a graceful shutdown in {@link startServer}: counts the exchanges under way, and once
 * {@link start}ed answers every new request `503` + `Retry-After` (the listener stays open, so clients hear
 * it rather than a refused connection) and asks every connection to close after its answer. Long-lived
 * streams (a legacy `GET` stream, a modern `subscriptions/listen`) are not waited for: the app ends them.
 */
export class HttpDrain {
  readonly #open = new Set<ServerResponse>();
  /** Long-lived streams open now: not waited for, but their clients may reconnect when the app ends them. */
  readonly #streams = new Set<ServerResponse>();
  readonly #clock: Clock;
  /** The connections of the exchanges and streams open when the drain started. */
  #told = new Set<Socket>();
  readonly #retryAfterS: number;
  #draining = false;
  #refused = 0;
  #idle: (() => void) | undefined;

  /** `clock`: the timers of {@link settled} (the runtime's clock, so that a test clock drives the drain). */
  constructor(clock: Clock = monotonicClock, retryAfterS = 1) {
    this.#clock = clock;
    this.#retryAfterS = retryAfterS;
  }

  /** True once the drain started. */
  get draining(): boolean {
    return this.#draining;
  }

  /** Requests answered `503` since the drain started. */
  get refused(): number {
    return this.#refused;
  }

  /** Exchanges under way that the drain waits for (streams excluded). */
  get open(): number {
    return this.#open.size;
  }

  /**
   * True when a client that was being answered or held a stream when the drain started is still connected: it
   * may send its next request at once (after its answer, or when its stream ends), and is worth a 503 rather
   * than a reset socket. False when there was none, or all of them went away.
   */
  get clientsLeft(): boolean {
    for (const socket of this.#told) if (!socket.destroyed) return true;
    return false;
  }

  /**
   * Admits one request: false when draining (it was answered `503`), else it is counted until its answer
   * ends or its client goes away.
   */
  admit(req: IncomingMessage, res: ServerResponse): boolean {
    if (this.#draining) {
      this.#refuse(req, res);
      return false;
    }
    if (isStream(req)) {
      this.#streams.add(res);
      res.once('close', () => this.#streams.delete(res));
      return true;
    }
    this.#open.add(res);
    res.once('close', () => {
      this.#open.delete(res);
      if (this.#open.size === 0) this.#idle?.();
    });
    return true;
  }

  /** From now on: new requests get `503`, and the connections of the answers under way close after them. */
  start(): void {
    this.#draining = true;
    for (const res of [...this.#open, ...this.#streams]) if (res.socket !== null) this.#told.add(res.socket);
    for (const res of this.#open) {
      if (!res.headersSent) res.shouldKeepAlive = false;
      // An answer already streaming cannot say `Connection: close`: end its socket right after it, so that the
      // client does not send its next request down a connection about to be closed.
      const socket = res.socket;
      res.once('finish', () => socket?.end());
    }
  }

  /** Resolves when every counted exchange ended, or after `ms` of the clock (true when all ended); at once when none is open. */
  async settled(ms: number): Promise<boolean> {
    if (this.#open.size > 0) {
      await new Promise<void>((resolve) => {
        const timer = this.#clock.setTimeout(resolve, Math.max(0, ms));
        this.#idle = () => (timer.cancel(), resolve());
      });
      this.#idle = undefined;
    }
    return this.#open.size === 0;
  }

  #refuse(req: IncomingMessage, res: ServerResponse): void {
    this.#refused++;
    const id = null;
    const body = JSON.stringify({
      jsonrpc: '2.0',
      error: { code: JsonRpcCode.InternalError, message: drainingMessage(this.#retryAfterS) },
      id,
    });
    res.shouldKeepAlive = false;
    res.writeHead(503, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
      'retry-after': String(this.#retryAfterS),
      connection: 'close',
    });
    res.end(body);
    // The unread body is not needed: the connection closes once the answer is out.
    req.resume();
  }
}

/** A request whose answer stays open for notifications: a legacy `GET` stream or a modern listen. */
function isStream(req: IncomingMessage): boolean {
  return req.method === 'GET' || req.headers['mcp-method'] === 'subscriptions/listen';
}
