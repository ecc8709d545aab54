import type { Clock } from '../../_internal/clock.js';
import { jsonRpcIdOf } from '../../protocol/jsonRpcId.js';
import { httpError } from './httpErrors.js';
import { isJsonAnswer } from './jsonAnswer.js';
import { trackBody } from './trackBody.js';

/**
 * `limits.maxInFlightCalls` at the HTTP entry: every `tools/call` message counts, one alone or many in a
 * batch, from the moment its body is admitted until its response ends (or, for calls that outlive their
 * response such as tasks, while the runtime still runs them). Responses to the other methods a drain waits
 * for (prompts, resources, completion) are counted too, outside the budget, so that `close()` knows when
 * every drained answer is written.
 */
export class CallBudget {
  readonly #max: number;
  readonly #running: () => number;
  #admitted = 0;
  /** Responses counted here (tool calls or other drained methods) whose bodies have not ended. */
  #open = 0;
  #answered: Array<() => void> = [];

  /** `running`: the calls the runtime runs now (the larger of the two counts is the load). */
  constructor(max: number, running: () => number) {
    this.#max = max;
    this.#running = running;
  }

  /** Tool calls admitted over HTTP whose responses have not ended. */
  get admitted(): number {
    return this.#admitted;
  }

  /**
   * Resolves once every counted response has ended (its answers written), or after `ms` of `clock`,
   * whichever comes first: `close()` waits for it after the drain.
   */
  answered(ms: number, clock: Clock): Promise<void> {
    if (this.#open === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = clock.setTimeout(resolve, ms);
      this.#answered.push(() => (timer.cancel(), resolve()));
    });
  }

  /**
   * Admits the tool calls of `body` and returns `serve`'s response, counted until its body ends; or refuses
   * them all: `503` with `Retry-After` while the budget is full, `400` for a batch holding more calls than
   * the budget (it could never run).
   */
  async run(body: unknown, serve: () => Promise<Response>): Promise<Response> {
    const calls = callsIn(body);
    if (calls === 0) return drained(body) ? this.#counted(0, serve) : serve();
    const id = jsonRpcIdOf(body);
    if (calls > this.#max) {
      return httpError(
        'batchTooLarge',
        `Bad Request: this batch holds ${calls} tool calls, more than the ${this.#max} this server runs at once. Send at most ${this.#max} tool calls per batch.`,
        id,
      );
    }
    if (Math.max(this.#admitted, this.#running()) + calls > this.#max) {
      return httpError(
        'callsBusy',
        `Service Unavailable: this server is running its maximum of ${this.#max} tool calls. Retry the call shortly.`,
        id,
      );
    }
    return this.#counted(calls, serve);
  }

  /**
   * `serve`'s response, counted (with `calls` admitted) until its body ends. Without calls, a JSON answer is
   * written once it exists: only a stream (a legacy POST's SSE) is watched, so prompts and resources keep the
   * cheap path.
   */
  async #counted(calls: number, serve: () => Promise<Response>): Promise<Response> {
    this.#admitted += calls;
    this.#open++;
    let response: Response;
    try {
      response = await serve();
    } catch (error) {
      this.#release(calls);
      throw error;
    }
    // A complete answer (a JSON one) ends at once in trackBody; a stream when its body ends.
    if (calls === 0 && !isJsonAnswer(response) && !isEventStream(response)) {
      this.#release(0);
      return response;
    }
    return trackBody(response, () => this.#release(calls)).response;
  }

  #release(calls: number): void {
    this.#admitted -= calls;
    if (--this.#open > 0 || this.#answered.length === 0) return;
    const waiting = this.#answered;
    this.#answered = [];
    for (const resolve of waiting) resolve();
  }
}

/** The `tools/call` messages of a body (one message or a batch). */
function callsIn(body: unknown): number {
  if (!Array.isArray(body)) return isCall(body) ? 1 : 0;
  let calls = 0;
  for (const message of body) if (isCall(message)) calls++;
  return calls;
}

/** The methods a drain waits for besides `tools/call` (the runtime tracks them: runtime/stages/track.ts). */
const DRAINED = new Set(['prompts/get', 'resources/read', 'completion/complete']);

/** True when `body` holds a request the drain waits for, other than a tool call. */
function drained(body: unknown): boolean {
  const method = (message: unknown) => (message as { method?: unknown } | null)?.method;
  if (!Array.isArray(body)) return DRAINED.has(method(body) as string);
  return body.some((message) => DRAINED.has(method(message) as string));
}

function isEventStream(response: Response): boolean {
  return (response.headers.get('content-type') ?? '').includes('text/event-stream');
}

function isCall(message: unknown): boolean {
  return typeof message === 'object' && message !== null && (message as { method?: unknown }).method === 'tools/call';
}
