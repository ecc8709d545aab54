import type { ProtocolEra, ToolExtra } from '../protocol/types.js';
import type { Principal } from '../principal/types.js';
import { requestPrincipal } from '../principal/requestPrincipal.js';
import type { SessionData } from '../session/sessionData.js';

/** What a running call lends its extra: the signal that also aborts on timeout and shutdown. */
export interface SignalSource {
  readonly signal: AbortSignal;
}

/**
 * The `extra` of one served request, built by an SDK adapter (one subclass per SDK line). One object a
 * request: the parts most handlers never read (the principal, `extra.session`, the client-request helpers, the
 * run's own abort signal) are made on first read, and the call stages set what they add (the workflow
 * instance, the run's signal, whose session data) on it instead of copying it. Destructuring works as on a
 * plain object (`const { progress, signal } = extra`); a spread copy (`{ ...extra }`) does not carry the
 * lazily made parts.
 */
export abstract class CallExtra implements ToolExtra {
  abstract readonly clientCapabilities: Readonly<Record<string, unknown>> | undefined;
  abstract readonly progress: ToolExtra['progress'];
  abstract readonly log: ToolExtra['log'];
  abstract readonly elicit: ToolExtra['elicit'];
  abstract readonly sample: ToolExtra['sample'];
  abstract readonly sealState: ToolExtra['sealState'];
  /** Set by the workflow stage for calls of FSM-bound tools. */
  workflow: ToolExtra['workflow'] = undefined;
  #principal: Principal | undefined;
  #run: SignalSource | undefined;
  #fallbackSignal: AbortSignal | undefined;
  #session: SessionData | undefined;
  #sessionOf: ((extra: CallExtra) => SessionData) | undefined;

  constructor(
    readonly era: ProtocolEra,
    readonly sessionId: string | undefined,
    /** The workflow-state key of the request (legacy session or connection), for its anonymous principal. */
    readonly stateKey: string | undefined,
    readonly requestId: string | number,
    readonly authInfo: unknown,
    readonly meta: Readonly<Record<string, unknown>> | undefined,
    readonly inputResponses: Readonly<Record<string, unknown>> | undefined,
    readonly requestState: unknown,
    readonly raw: unknown,
    /** The request's own signal (the SDK's), aborted on cancellation. */
    readonly requestSignal: AbortSignal | undefined,
  ) {}

  /** Aborted on timeout, cancellation or shutdown once a handler runs; before that, the request's own signal. */
  get signal(): AbortSignal {
    return this.#run?.signal ?? this.requestSignal ?? (this.#fallbackSignal ??= new AbortController().signal);
  }

  get principal(): Principal {
    return (this.#principal ??= requestPrincipal({ stateKey: this.stateKey, extra: this }));
  }

  get session(): SessionData | undefined {
    if (this.#session === undefined && this.#sessionOf !== undefined) this.#session = this.#sessionOf(this);
    return this.#session;
  }

  /** Called by the handler stage: the run's signal, and whose data `extra.session` is (made on first read). */
  beginRun(run: SignalSource, sessionOf: (extra: CallExtra) => SessionData): void {
    this.#run = run;
    this.#sessionOf = sessionOf;
    this.#session = undefined;
  }
}
