import type { RequestContext } from '../../surface/types.js';
import { requestPrincipal } from '../../principal/requestPrincipal.js';
import { carriedClock, monotonicClock } from '../../_internal/clock.js';
import { Deadlines } from './Deadlines.js';

/**
 * One request in flight, in the {@link CallTracker}'s ledger: its method, and while its run counts against
 * a principal's `maxConcurrentCalls`, that principal. It is held by whoever has a part in it (the HTTP budget
 * until its response ends, the method wrapper while the handler runs, the run of a tool call while it runs)
 * and ends when the last lets go.
 */
export class Ticket {
  /** The principal the run counts against (set by the concurrency stage while it runs). */
  owner: string | undefined = undefined;
  /** @internal */ holds = 1;

  constructor(readonly method: string) {}

  /** True for a `tools/call` (what `limits.maxInFlightCalls` counts). */
  get call(): boolean {
    return this.method === 'tools/call';
  }
}

/**
 * The one count of requests in flight: a ledger of {@link Ticket}s, from which every count is derived: all of
 * them (graceful drain waits for them), the tool calls (the HTTP budget, `limits.maxInFlightCalls`) and the
 * tool calls per principal (the `maxConcurrentCalls` stage). It also holds the deadlines of the handlers
 * (aborted when a drain runs out of time).
 */
export class CallTracker {
  /** The handlers' timeouts and abort signals. */
  readonly deadlines: Deadlines;
  readonly #tickets = new Set<Ticket>();
  readonly #owners = new Map<string, number>();
  #calls = 0;
  #cut = false;
  #idle: Array<() => void> = [];

  /** `now`: the attach option; a test clock's `now` drives the deadlines, else they run on monotonic time. */
  constructor(now?: () => number) {
    this.deadlines = new Deadlines(carriedClock(now) ?? monotonicClock);
  }

  /** Requests in flight now (every method, and the runs of tasks). */
  get inFlight(): number {
    return this.#tickets.size;
  }

  /** Tool calls in flight now (admitted over HTTP, or running). */
  get calls(): number {
    return this.#calls;
  }

  /** A new ticket for one request of `method`, held once (let go with {@link release}). */
  open(method: string): Ticket {
    const ticket = new Ticket(method);
    this.#tickets.add(ticket);
    if (ticket.call) this.#calls++;
    return ticket;
  }

  /** Holds `ticket` once more (it ends only when every hold is released); returns it. */
  hold(ticket: Ticket): Ticket {
    ticket.holds++;
    return ticket;
  }

  /** Lets go of one hold of `ticket`; the last ends it. */
  release(ticket: Ticket): void {
    if (--ticket.holds > 0 || !this.#tickets.delete(ticket)) return;
    this.disown(ticket);
    if (ticket.call) this.#calls--;
    if (this.#tickets.size > 0 || this.#idle.length === 0) return;
    const waiting = this.#idle;
    this.#idle = [];
    for (const resolve of waiting) resolve();
  }

  /**
   * Runs `run` with `ticket` held (a new ticket of `method` without it, or when it ended) until the promise it
   * returns settles: a method's handler (adopting its HTTP reservation), a tool call's run.
   */
  track<R>(method: string, run: (ticket: Ticket) => R, ticket?: Ticket): R {
    // A ticket that ended already (an HTTP reservation whose response ended first) is not taken up again.
    const held = ticket !== undefined && this.#tickets.has(ticket) ? this.hold(ticket) : this.open(method);
    let pending: R;
    try {
      pending = run(held);
    } catch (error) {
      this.release(held);
      throw error;
    }
    if (!(pending instanceof Promise)) {
      this.release(held);
      return pending;
    }
    return pending.finally(() => this.release(held)) as R;
  }

  /** Who a concurrency limit counts against: the request's principal (an anonymous legacy caller is its session). */
  static ownerOf(rctx: RequestContext): string {
    return requestPrincipal(rctx).key;
  }

  /** Counts `ticket` against `owner`, unless `limit` of its tickets count already (false). Undo with {@link disown}. */
  own(ticket: Ticket, owner: string, limit: number): boolean {
    const running = this.#owners.get(owner) ?? 0;
    if (running >= limit) return false;
    this.#owners.set(owner, running + 1);
    ticket.owner = owner;
    return true;
  }

  /** Stops counting `ticket` against its owner. */
  disown(ticket: Ticket): void {
    const owner = ticket.owner;
    if (owner === undefined) return;
    ticket.owner = undefined;
    const left = this.#owners.get(owner)! - 1;
    if (left === 0) this.#owners.delete(owner);
    else this.#owners.set(owner, left);
  }

  /** True once a drain ran out of time with handlers running (it aborted them: their answers are still to come). */
  get cut(): boolean {
    return this.#cut;
  }

  /** Resolves once no ticket is left, or after `ms` of the deadlines' clock, whichever comes first. */
  idle(ms: number): Promise<void> {
    if (this.#tickets.size === 0 || ms <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = this.deadlines.clock.setTimeout(resolve, ms);
      this.#idle.push(() => (timer.cancel(), resolve()));
    });
  }

  /**
   * Graceful shutdown: waits up to `deadlineMs` for the requests in flight to end, then aborts the handlers
   * still running (they see an aborted signal). With nothing in flight it returns at once.
   */
  async drain(deadlineMs: number): Promise<void> {
    await this.idle(deadlineMs);
    if (this.#tickets.size > 0) this.#cut = this.deadlines.abortAll(new Error('server shutting down')) > 0;
  }
}
