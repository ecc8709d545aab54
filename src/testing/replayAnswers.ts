import type { Client } from '@modelcontextprotocol/client';
import type { ClientAnswer } from '../tracing/types.js';

/**
 * The replay's client side of a step: it answers the handler's elicitation and sampling requests with the
 * answers the step recorded, in order, and notes what it could not answer.
 */
export class ReplayAnswers {
  #queue: ClientAnswer[] = [];
  /** Requests the handler sent that the step recorded no answer for (their methods). */
  unanswered: string[] = [];

  constructor(client: Client) {
    client.setRequestHandler('elicitation/create', () => this.#answer('elicitation/create') as never);
    client.setRequestHandler('sampling/createMessage', () => this.#answer('sampling/createMessage') as never);
  }

  /** Starts a step: these are the answers the client gave during it. */
  begin(answers: readonly ClientAnswer[] | undefined): void {
    this.#queue = [...(answers ?? [])];
    this.unanswered = [];
  }

  /** Answers recorded for the step that the replayed handler never asked for. */
  get unused(): readonly ClientAnswer[] {
    return this.#queue;
  }

  #answer(method: ClientAnswer['method']): Record<string, unknown> {
    const next = this.#queue[0];
    if (next?.method !== method) {
      this.unanswered.push(method);
      throw new Error(`the transcript recorded no answer to ${method} at this step`);
    }
    this.#queue.shift();
    if (next.error !== undefined) throw new Error(next.error);
    return next.result ?? {};
  }
}
