import type { HandlerExtra } from '../../protocol/types.js';
import type { AttachOptions, DebugEvent } from './options.js';
import { OperatorLog } from '../../logging/OperatorLog.js';
import { memorySessionData, type SessionData, type SessionDataBackend } from '../../session/sessionData.js';
import { debugSink } from './debugSink.js';
import { systemClock, nowOption } from '../../_internal/clock.js';
import { ByteLedger } from '../../ledger/ByteLedger.js';
import { CallTracker } from './CallTracker.js';
import { sessionDataOf } from './sessionDataOf.js';

const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * What every request path of one runtime shares, built once from the options: the operator's log and the
 * debug observer, the running requests (drain, concurrency, deadlines), the handlers' default timeout and
 * where `extra.session` data lives.
 */
export class RuntimeCore<Ctx = any> {
  readonly options: AttachOptions<Ctx>;
  readonly log: OperatorLog;
  /** The `debug` observer (and the logger at `debug`), when either listens. */
  readonly debug: ((event: DebugEvent) => void) | undefined;
  /** Every running request of every path: graceful drain waits for them, and their deadlines. */
  readonly tracker: CallTracker;
  /** The default timeout of a handler in ms (`timeoutMs`, 30,000); `.timeout(ms)` overrides per tool. */
  readonly timeoutMs: number;
  readonly sessionData: SessionDataBackend;
  /** True when the data lives in this process only (released with its session). */
  readonly ownsSessionData: boolean;
  /** The one accountant of bytes held for clients (the `heldBytes` option). */
  readonly ledger: ByteLedger;
  /** The idle TTL of a workflow instance, once a workflow is attached (an instance's data lives as long). */
  workflowTtlMs: number | undefined;

  constructor(options: AttachOptions<Ctx>) {
    this.options = options;
    this.log = OperatorLog.of(options);
    this.debug = debugSink(options.debug, this.log);
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.tracker = new CallTracker(nowOption(options.clock));
    const held = options.heldBytes;
    this.ledger = held instanceof ByteLedger ? held : new ByteLedger(held, options.clock ?? systemClock);
    this.log.chargeTo(this.ledger);
    this.ownsSessionData = options.sessionData === undefined;
    const { sessionDataLimits: limits } = options;
    const now = nowOption(options.clock);
    const memory = { ...(now !== undefined ? { now } : {}), ...(limits !== undefined ? { limits } : {}) };
    this.sessionData = options.sessionData ?? memorySessionData(10_000, memory);
    this.sessionData.useLedger?.(this.ledger);
  }

  /** Whose data `extra.session` is for a request (made on first read). */
  readonly sessionOf = (extra: HandlerExtra, sessionKey: string | undefined): SessionData => {
    const caps = { maxBytes: this.options.sessionDataMaxBytes, workflowTtlMs: this.workflowTtlMs };
    return sessionDataOf(this.sessionData, extra, sessionKey, caps);
  };

  /** A debug event; a failure caught and survived (a listener, the gate's store) is logged as an error too. */
  readonly emit = (event: DebugEvent): void => {
    this.debug?.(event);
    if (event.type === 'error') this.log.error(event.message, {}, event.error);
  };

  /** A startup warning: to `onWarning`, else the logger at `warn` (and the debug channel either way). */
  warn(message: string): void {
    this.emit({ type: 'warning', message });
    if (this.options.onWarning !== undefined) this.options.onWarning(message);
    else this.log.warn(message);
  }
}
