import type { ProtocolEra, HandlerExtra, ToolResponse } from '../../protocol/types.js';
import type { Principal } from '../../principal/types.js';
import { requestPrincipal } from '../../principal/requestPrincipal.js';
import type { SessionData } from '../../session/sessionData.js';
import { recordingAnswers, type ClientAnswer } from './clientAnswers.js';

/** What work detached from its request (a task) uses instead of the request's signal and client helpers. */
export interface DetachedParts {
  readonly signal: AbortSignal;
  readonly progress: HandlerExtra['progress'];
  readonly log: HandlerExtra['log'];
  readonly elicit: HandlerExtra['elicit'];
  readonly sample: HandlerExtra['sample'];
  /** Claims the handler's result for the task before it counts (see `RequestSignal.claimResult`). */
  readonly claimResult?: (() => Promise<boolean> | true) | undefined;
  /**
   * Called once the call's stages admitted it, just before its handler runs: a task's record is made there,
   * so a call a stage refuses leaves no task. The handler waits for the promise; when it resolves to a
   * result (the record could not be made), that is the call's answer and the handler never runs.
   */
  readonly admitted?: (() => Promise<ToolResponse | undefined> | undefined) | undefined;
  /** A task's run whose call spent its rate limit when the stages admitted it: the rate limit lets it pass. */
  readonly rateLimitSpent?: boolean | undefined;
}

/** What a running call lends its extra: the signal that also aborts on timeout and shutdown. */
export interface SignalSource {
  readonly signal: AbortSignal;
}

/**
 * How one attachment reaches its SDK server and client for a request's extra (one bridge per SDK line and
 * attachment, built once): each method reads what it needs of `extra.raw`, the SDK's handler context.
 */
export interface ExtraBridge {
  /** The SDK's request fields, read from `extra.raw` when first asked for. */
  sessionId(raw: unknown): string | undefined;
  requestId(raw: unknown): string | number;
  authInfo(raw: unknown): unknown;
  meta(raw: unknown): Readonly<Record<string, unknown>> | undefined;
  inputResponses(raw: unknown): Readonly<Record<string, unknown>> | undefined;
  requestSignal(raw: unknown): AbortSignal | undefined;
  clientCapabilities(extra: CallExtra): Readonly<Record<string, unknown>> | undefined;
  progress(extra: CallExtra): HandlerExtra['progress'];
  log(extra: CallExtra): HandlerExtra['log'];
  elicit(extra: CallExtra, params: Record<string, unknown>): Promise<Record<string, unknown>>;
  sample(extra: CallExtra, params: Record<string, unknown>): Promise<Record<string, unknown>>;
  sealState(extra: CallExtra, payload: unknown): Promise<string>;
  /** The caller, when the bridge knows it already (an extra built elsewhere); else it is made from the request. */
  principal?(): Principal;
}

/**
 * The `extra` of one served request: one object a request, of one shape whatever the SDK line. What most
 * handlers never read (the principal, `extra.session`, the client-facing helpers, the run's own abort
 * signal) is made on read, and the call stages set what they add (the workflow instance, the run's signal,
 * whose session data) on it instead of copying it. Destructuring works as on a plain object
 * (`const { progress, signal } = extra`); a spread copy (`{ ...extra }`) does not carry the parts made on read.
 */
export class CallExtra implements HandlerExtra {
  /** Set by the workflow stage for calls of FSM-bound tools. */
  workflow: HandlerExtra['workflow'] = undefined;
  /** Set for an observed call (a debug observer is on): the client's answers to `elicit` and `sample`, in order. */
  answers: ClientAnswer[] | undefined = undefined;
  readonly #bridge: ExtraBridge;
  #principal: Principal | undefined = undefined;
  #run: SignalSource | undefined = undefined;
  #session: SessionData | undefined = undefined;
  #sessionOf: ((extra: HandlerExtra, sessionKey: string | undefined) => SessionData) | undefined = undefined;

  constructor(
    bridge: ExtraBridge,
    readonly era: ProtocolEra,
    /** The request's session key (legacy session or connection; `RequestContext.sessionKey`), for its anonymous principal. */
    readonly sessionKey: string | undefined,
    readonly requestState: unknown,
    /** The SDK's own handler context (v2 `ctx`, v1 `extra`); the request's fields are read from it on demand. */
    readonly raw: unknown,
    /** What a sealed `requestState` is bound to (`tools/call:<name>`, …); the method when undefined. */
    readonly target: string | undefined,
    /** Set for work that outlives its request (a task): its own signal and client-facing helpers. */
    readonly detached?: DetachedParts,
  ) {
    this.#bridge = bridge;
  }

  /**
   * The one shape of every handler's extra: `extra` itself when it is one already (the adapters' own, a
   * task's), else one over an extra built elsewhere (`detachedExtra`, a test's or a script's, a re-run's)
   * whose request data and helpers are read from it. `sessionKey`: the request context's. The runtime makes
   * every extra it hands on here, so nothing after its entries tells two kinds of extra apart.
   */
  static of(extra: HandlerExtra, sessionKey: string | undefined): CallExtra {
    if (extra instanceof CallExtra) return extra;
    const made = new CallExtra(recordBridge(extra), extra.era, sessionKey, extra.requestState, extra.raw, undefined, {
      signal: extra.signal,
      progress: extra.progress,
      log: extra.log,
      elicit: extra.elicit,
      sample: extra.sample,
      claimResult: (extra as { claimResult?: DetachedParts['claimResult'] }).claimResult,
    });
    made.workflow = extra.workflow;
    return made;
  }

  /** This request's extra for work that outlives it (a task): the same request data, `parts` for the rest. */
  detach(parts: DetachedParts): CallExtra {
    return new CallExtra(this.#bridge, this.era, this.sessionKey, this.requestState, this.raw, this.target, parts);
  }

  get sessionId(): string | undefined {
    return this.#bridge.sessionId(this.raw);
  }

  get requestId(): string | number {
    return this.#bridge.requestId(this.raw);
  }

  get authInfo(): unknown {
    return this.#bridge.authInfo(this.raw);
  }

  get meta(): Readonly<Record<string, unknown>> | undefined {
    return this.#bridge.meta(this.raw);
  }

  get inputResponses(): Readonly<Record<string, unknown>> | undefined {
    return this.#bridge.inputResponses(this.raw);
  }

  /** The request's own signal (the SDK's), aborted on cancellation. */
  get requestSignal(): AbortSignal | undefined {
    if (this.detached !== undefined) return this.detached.signal;
    return this.#bridge.requestSignal(this.raw);
  }

  /** Work detached from its request (a task): claims the handler's result before it counts. */
  get claimResult(): (() => Promise<boolean> | true) | undefined {
    return this.detached?.claimResult;
  }

  /** Work detached from its request (a task): told when its stages admitted it (see {@link DetachedParts.admitted}). */
  get admitted(): (() => Promise<ToolResponse | undefined> | undefined) | undefined {
    return this.detached?.admitted;
  }

  /** Work detached from its request (a task) whose rate limit was spent at admission (see {@link DetachedParts.rateLimitSpent}). */
  get rateLimitSpent(): boolean {
    return this.detached?.rateLimitSpent === true;
  }

  /** Aborted on timeout, cancellation or shutdown once a handler runs; before that, the request's own signal. */
  get signal(): AbortSignal {
    return this.#run?.signal ?? this.requestSignal ?? (this.#run = { signal: new AbortController().signal }).signal;
  }

  get principal(): Principal {
    return (this.#principal ??=
      this.#bridge.principal?.() ?? requestPrincipal({ sessionKey: this.sessionKey, extra: this }));
  }

  get session(): SessionData | undefined {
    if (this.#session === undefined && this.#sessionOf !== undefined)
      this.#session = this.#sessionOf(this, this.sessionKey);
    return this.#session;
  }

  get clientCapabilities(): Readonly<Record<string, unknown>> | undefined {
    return this.#bridge.clientCapabilities(this);
  }

  get progress(): HandlerExtra['progress'] {
    if (this.detached !== undefined) return this.detached.progress;
    return this.#bridge.progress(this);
  }

  get log(): HandlerExtra['log'] {
    if (this.detached !== undefined) return this.detached.log;
    return this.#bridge.log(this);
  }

  get elicit(): HandlerExtra['elicit'] {
    const ask = this.detached?.elicit ?? ((params) => this.#bridge.elicit(this, params));
    return this.answers === undefined ? ask : recordingAnswers(this.answers, 'elicitation/create', ask);
  }

  get sample(): HandlerExtra['sample'] {
    const ask = this.detached?.sample ?? ((params) => this.#bridge.sample(this, params));
    return this.answers === undefined ? ask : recordingAnswers(this.answers, 'sampling/createMessage', ask);
  }

  get sealState(): HandlerExtra['sealState'] {
    return (payload) => this.#bridge.sealState(this, payload);
  }

  /** Called by the handler stage: the run's signal, and whose data `extra.session` is (made on first read). */
  beginRun(run: SignalSource, sessionOf: (extra: HandlerExtra, sessionKey: string | undefined) => SessionData): void {
    this.#run = run;
    this.#sessionOf = sessionOf;
    this.#session = undefined;
  }
}

/** The bridge of an extra built elsewhere: its request data read from it when asked for. */
function recordBridge(source: HandlerExtra): ExtraBridge {
  return {
    sessionId: () => source.sessionId,
    requestId: () => source.requestId,
    authInfo: () => source.authInfo,
    meta: () => source.meta,
    inputResponses: () => source.inputResponses,
    requestSignal: () => source.signal,
    clientCapabilities: () => source.clientCapabilities,
    progress: () => source.progress,
    log: () => source.log,
    elicit: (_extra, params) => source.elicit(params),
    sample: (_extra, params) => source.sample(params),
    sealState: (_extra, payload) => source.sealState(payload),
    principal: () => source.principal,
  };
}
