import type { ToolResponse } from '../../protocol/types.js';
import { errorResult } from '../../protocol/normalizeResult.js';
import { messages } from '../../protocol/messages.js';
import { WireError } from '../../errors/WireError.js';
import { monotonicClock, type Clock, type Timer } from '../../_internal/clock.js';
import type { SignalSource } from './CallExtra.js';

/** Where a running call finds the request's own signal (read on first need: most handlers never read theirs). */
export interface RequestSignal {
  readonly requestSignal: AbortSignal | undefined;
  /**
   * Work detached from its request (a task): claims the handler's result before it counts. `true` (at once)
   * or a promise of true keeps it; false means the work was cancelled meanwhile (on any instance), and its
   * result is dropped like one that arrives after a cancel.
   */
  readonly claimResult?: (() => Promise<boolean> | true) | undefined;
}

/** What a handler under a deadline is lent: its signal, and when it started (on the deadlines' clock). */
export interface RunningHandler extends SignalSource {
  readonly started: number;
}

/**
 * One running handler: its abort signal (made on first read: most handlers never read it), its place in the
 * queue of its timeout, and how its call resolves (exactly once).
 */
class RunningCall implements RunningHandler {
  prev: RunningCall | undefined;
  next: RunningCall | undefined;
  resolve: ((result: ToolResponse) => void) | undefined;
  reject: ((error: WireError) => void) | undefined;
  #controller: AbortController | undefined;
  #reason: unknown;
  #onParentAbort: (() => void) | undefined;
  #parent: AbortSignal | undefined;

  constructor(
    readonly tool: string,
    readonly due: number,
    readonly queue: DeadlineQueue,
    readonly request: RequestSignal,
  ) {}

  /** When the run started: derived from its due time, so that starting a call reads the clock once. */
  get started(): number {
    return this.due - this.queue.ms;
  }

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      const controller = (this.#controller = new AbortController());
      const parent = (this.#parent = this.request.requestSignal);
      if (this.#reason !== undefined) controller.abort(this.#reason);
      else if (parent?.aborted === true) controller.abort(parent.reason);
      else if (parent !== undefined && this.resolve !== undefined) {
        this.#onParentAbort = () => this.abort(parent.reason);
        parent.addEventListener('abort', this.#onParentAbort, { once: true });
      }
    }
    return this.#controller.signal;
  }

  /**
   * The handler's result; one that arrives after the request was cancelled, or (a task) whose claim finds the
   * task cancelled on any instance, counts as a failure: no transition, no invalidation.
   */
  readonly finished = (result: ToolResponse): void => {
    if (this.request.requestSignal?.aborted === true) return this.settle(cancelledResult(this.tool));
    const claimed = this.resolve === undefined ? true : (this.request.claimResult?.() ?? true);
    if (claimed === true) return this.settle(result);
    claimed.then(
      (kept) => this.settle(kept ? result : cancelledResult(this.tool)),
      (error: unknown) => this.settle(errorResult(messages.claimFailed(this.tool, error))),
    );
  };

  /** A handler's WireError is a protocol error the client gets as such; anything else an isError result. */
  readonly failed = (error: unknown): void =>
    error instanceof WireError
      ? this.fail(error)
      : this.settle(errorResult(error instanceof Error ? error.message : String(error)));

  /** Aborts the handler's signal (timeout, cancellation or shutdown); the first reason wins. */
  abort(why: unknown): void {
    this.#reason ??= why;
    this.#controller?.abort(why);
  }

  /** Rejects the call with a handler's protocol error unless it already settled; leaves its queue. */
  fail(error: WireError): void {
    const reject = this.reject;
    if (this.resolve === undefined || reject === undefined) return;
    this.settle(undefined);
    reject(error);
  }

  /** Resolves the call with `result` (none: {@link fail} rejects it) unless it already settled; leaves its queue. */
  settle(result: ToolResponse | undefined): void {
    const resolve = this.resolve;
    if (resolve === undefined) return;
    this.resolve = undefined;
    this.reject = undefined;
    this.queue.remove(this);
    if (this.#onParentAbort !== undefined) this.#parent!.removeEventListener('abort', this.#onParentAbort);
    if (result !== undefined) resolve(result);
  }
}

function cancelledResult(tool: string): ToolResponse {
  return errorResult(messages.cancelled(tool), { 'fusion/cancelled': true });
}

/** The call whose promise is being made: `new Promise` runs its executor at once, so one shared executor serves every call. */
let adopting: RunningCall | undefined;

function adopt(resolve: (result: ToolResponse) => void, reject: (error: WireError) => void): void {
  adopting!.resolve = resolve;
  adopting!.reject = reject;
  adopting = undefined;
}

/**
 * The running calls of one timeout length, oldest first (so the head is due first), behind one timer that is
 * armed for the head only: starting and finishing a call is a link in a list, not a timer of its own.
 */
class DeadlineQueue {
  head: RunningCall | undefined;
  tail: RunningCall | undefined;
  #timer: Timer | undefined;

  constructor(
    readonly ms: number,
    readonly clock: Clock,
  ) {}

  push(call: RunningCall): void {
    call.prev = this.tail;
    if (this.tail === undefined) this.head = call;
    else this.tail.next = call;
    this.tail = call;
    if (this.#timer === undefined) this.#arm(this.ms);
  }

  remove(call: RunningCall): void {
    if (call.prev === undefined) this.head = call.next;
    else call.prev.next = call.next;
    if (call.next === undefined) this.tail = call.prev;
    else call.next.prev = call.prev;
    call.prev = call.next = undefined;
  }

  /** Stops the timer (the next call re-arms it). */
  disarm(): void {
    this.#timer?.cancel();
    this.#timer = undefined;
  }

  #arm(ms: number): void {
    this.#timer = this.clock.setTimeout(() => this.#expire(), ms);
  }

  /** Times out every call that is due (timers may fire up to a millisecond early), then re-arms for the next. */
  #expire(): void {
    this.#timer = undefined;
    const now = this.clock.now();
    while (this.head !== undefined && this.head.due <= now + 1) {
      const call = this.head;
      call.abort(new Error(`timed out after ${this.ms} ms`));
      call.settle(errorResult(messages.timedOut(call.tool, this.ms), { 'fusion/timeout': { ms: this.ms } }));
    }
    if (this.head !== undefined) this.#arm(Math.max(1, this.head.due - now));
  }
}

/**
 * The deadlines of the running tool calls of one pipeline: each call resolves exactly once, with its handler's
 * result or, after `ms`, with a timeout `isError` result (the handler's signal aborts and its later result is
 * dropped). The handler's signal also aborts when the request's own signal does, or on {@link abortAll}.
 */
export class Deadlines {
  readonly #queues = new Map<number, DeadlineQueue>();

  /** `clock`: monotonic time and real timers by default; a test's clock moves deadlines by hand. */
  constructor(readonly clock: Clock = monotonicClock) {}

  /**
   * Runs `fn(running, arg)` under a deadline of `ms`; `request.requestSignal` is the request's own signal
   * (client cancellation), read only if the handler reads its signal. `arg` lets a caller pass one `fn` built
   * once instead of a closure per call.
   */
  run<A = undefined>(
    tool: string,
    ms: number,
    request: RequestSignal,
    fn: (running: RunningHandler, arg: A) => Promise<ToolResponse>,
    arg?: A,
  ): Promise<ToolResponse> {
    let queue = this.#queues.get(ms);
    if (queue === undefined) this.#queues.set(ms, (queue = new DeadlineQueue(ms, this.clock)));
    const call = new RunningCall(tool, this.clock.now() + ms, queue, request);
    adopting = call;
    const settled = new Promise<ToolResponse>(adopt);
    queue.push(call);
    let pending: Promise<ToolResponse>;
    try {
      pending = fn(call, arg as A);
    } catch (error) {
      pending = Promise.reject(error);
    }
    pending.then(call.finished, call.failed);
    return settled;
  }

  /** Stops the timers of queues with no running call (a closing app leaves none behind). */
  dispose(): void {
    for (const queue of this.#queues.values()) if (queue.head === undefined) queue.disarm();
  }

  /** Aborts the signal of every running call (shutdown after a drain ran out of time); returns how many. */
  abortAll(reason: Error): number {
    let aborted = 0;
    for (const queue of this.#queues.values()) {
      for (let call = queue.head; call !== undefined; call = call.next, aborted++) call.abort(reason);
    }
    return aborted;
  }
}
