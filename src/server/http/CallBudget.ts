import type { CallTracker, Ticket } from '../../runtime/core/CallTracker.js';
import { noteOf } from '../../runtime/frontNotes.js';
import { jsonRpcIdOf } from '../../protocol/jsonRpcId.js';
import { httpError } from './httpErrors.js';
import { isJsonAnswer } from './jsonAnswer.js';
import { trackBody } from './trackBody.js';

/**
 * `limits.maxInFlightCalls` at the HTTP entry, on the runtime's one count of requests in flight
 * (`CallTracker`): every request message of a body gets a ticket there from the moment its body is admitted
 * until its response ends, noted for its handler (`runtime/frontNotes.ts`), which adopts it instead of counting
 * again; a `tools/call`'s ticket lives on while its run does (a task's). Tool calls are refused past the budget.
 */
export class CallBudget {
  readonly #max: number;
  readonly #tracker: CallTracker;
  /** The tickets whose HTTP hold is not let go yet. */
  readonly #held = new WeakSet<Ticket>();

  constructor(max: number, tracker: CallTracker) {
    this.#max = max;
    this.#tracker = tracker;
  }

  /**
   * Admits the request messages of `body` (posted as `request`) and returns `serve`'s response, their tickets
   * held until its body ends; or refuses them all: `503` with `Retry-After` while the budget is full, `400` for
   * a batch holding more calls than the budget (it could never run).
   */
  async run(request: Request, body: unknown, serve: () => Promise<Response>): Promise<Response> {
    const messages = requestsIn(body);
    if (messages.length === 0) return serve();
    let calls = 0;
    for (const message of messages) if (message.method === 'tools/call') calls++;
    if (calls > this.#max) {
      return httpError(
        'batchTooLarge',
        `Bad Request: this batch holds ${calls} tool calls, more than the ${this.#max} this server runs at once. Send at most ${this.#max} tool calls per batch.`,
        jsonRpcIdOf(body),
      );
    }
    if (calls > 0 && this.#tracker.calls + calls > this.#max) {
      return httpError(
        'callsBusy',
        `Service Unavailable: this server is running its maximum of ${this.#max} tool calls. Retry the call shortly.`,
        jsonRpcIdOf(body),
      );
    }
    const tickets = messages.map(({ id, method }) => {
      const ticket = this.#tracker.open(method);
      this.#held.add(ticket);
      (noteOf(request, id).tickets ??= []).push(ticket);
      return ticket;
    });
    return this.#counted(tickets, serve);
  }

  /**
   * Ends the reservations of `request` now: a listen stream holds its request for as long as it listens, which
   * no drain waits for.
   */
  letGo(request: Request, body: unknown): void {
    for (const { id } of requestsIn(body))
      for (const ticket of noteOf(request, id).tickets?.splice(0) ?? []) this.#release(ticket);
  }

  /** Lets go of the HTTP hold of `ticket`, once. */
  #release(ticket: Ticket): void {
    if (this.#held.delete(ticket)) this.#tracker.release(ticket);
  }

  /** `serve`'s response, with `tickets` held until its body ends (a JSON answer ends at once). */
  async #counted(tickets: readonly Ticket[], serve: () => Promise<Response>): Promise<Response> {
    const release = (): void => {
      for (const ticket of tickets) this.#release(ticket);
    };
    let response: Response;
    try {
      response = await serve();
    } catch (error) {
      release();
      throw error;
    }
    if (!isJsonAnswer(response) && !isEventStream(response)) {
      release();
      return response;
    }
    return trackBody(response, release).response;
  }
}

/** The request messages (with an id and a method) of a body (one message or a batch). */
function requestsIn(body: unknown): Array<{ id: unknown; method: string }> {
  const found: Array<{ id: unknown; method: string }> = [];
  for (const message of Array.isArray(body) ? body : [body]) {
    if (typeof message !== 'object' || message === null) continue;
    const { id, method } = message as { id?: unknown; method?: unknown };
    if (id !== undefined && typeof method === 'string') found.push({ id, method });
  }
  return found;
}

function isEventStream(response: Response): boolean {
  return (response.headers.get('content-type') ?? '').includes('text/event-stream');
}
