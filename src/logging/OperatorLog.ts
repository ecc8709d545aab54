import { boundLogValue } from './boundLogValue.js';
import type { ByteLedger } from '../ledger/ByteLedger.js';
import { createStderrLogger, queueOf, selfBounded } from './createStderrLogger.js';
import { resolveLogLimits } from './logLimits.js';
import { LOG_RANK, resolveLogLevel } from './logLevel.js';
import { RefusalThrottle } from './RefusalThrottle.js';
import type { FusionLogLevel, LogFields, Logger, LogOptions } from './types.js';

type Level = Exclude<FusionLogLevel, 'silent'>;

const built = new WeakMap<object, OperatorLog>();

/**
 * The operator's log of one options object: the configured logger (or the default stderr one) behind
 * the level gate, with one record per failure, warnings, and refusals throttled per reason and tool.
 * Fields left undefined are dropped, the message and every value cut to `logLimits.maxValueBytes` (the
 * default logger also escapes them); a logger that throws never breaks the request it logs.
 * @see docs/observability.md#logging
 */
export class OperatorLog {
  readonly level: FusionLogLevel;
  /** True when records of failed or refused calls may carry their arguments (`logArguments`). */
  readonly logArguments: boolean;
  readonly #logger: Logger;
  readonly #rank: number;
  readonly #throttle: RefusalThrottle;
  /** The bound of each value, when the logger does not apply it itself. */
  readonly #maxValueBytes: number | undefined;

  constructor(options: LogOptions = {}) {
    this.level = resolveLogLevel(options.logLevel);
    this.#rank = LOG_RANK[this.level];
    const limits = resolveLogLimits(options.logLimits);
    const now = options.clock?.now;
    this.#logger = options.logger ?? createStderrLogger(undefined, now, limits);
    this.#maxValueBytes = selfBounded.has(this.#logger) ? undefined : limits.maxValueBytes;
    this.logArguments = options.logArguments === true;
    this.#throttle = new RefusalThrottle(now === undefined ? {} : { now });
  }

  /** The log of `options`, built once per options object (so the pipelines of one attachment share its throttle). */
  static of(options: LogOptions): OperatorLog {
    let log = built.get(options);
    if (log === undefined) built.set(options, (log = new OperatorLog(options)));
    return log;
  }

  /** Holds the default logger's waiting lines on `ledger` (kind `log`, the server's): the runtime's ledger. */
  chargeTo(ledger: ByteLedger): void {
    queueOf.get(this.#logger)?.chargeTo(ledger);
  }

  /** True when records of `level` reach the logger (check before building costly fields). */
  enabled(level: Level): boolean {
    return LOG_RANK[level] >= this.#rank;
  }

  /** A failure mcp-fusion caught (a handler, the context factory, a store, a listener): `err` carries the error. */
  error(message: string, fields: LogFields, err: unknown): void {
    this.#write('error', { ...fields, err }, message);
  }

  warn(message: string, fields: LogFields = {}): void {
    this.#write('warn', fields, message);
  }

  debug(message: string, fields: LogFields): void {
    this.#write('debug', fields, message);
  }

  /**
   * A refused call (rate limit, budget) at `warn`, at most a few per `key` a minute; the first record after
   * a suppressed stretch says how many were left out (`suppressed`).
   */
  refusal(key: string, message: string, fields: LogFields): void {
    if (!this.enabled('warn')) return;
    const suppressed = this.#throttle.admit(key);
    if (suppressed === undefined) return;
    this.#write('warn', suppressed > 0 ? { ...fields, suppressed } : fields, message);
  }

  /** The `arguments` field of a call's record: the arguments with `logArguments`, else nothing. */
  argumentsField(args: unknown): LogFields {
    return this.logArguments && args !== undefined ? { arguments: args } : {};
  }

  #write(level: Level, fields: LogFields, message: string): void {
    if (LOG_RANK[level] < this.#rank) return;
    const max = this.#maxValueBytes;
    const clean: LogFields = {};
    for (const [key, value] of Object.entries(fields))
      if (value !== undefined) clean[key] = max === undefined ? value : boundLogValue(value, max);
    try {
      this.#logger[level](clean, max === undefined ? message : (boundLogValue(message, max) as string));
    } catch {
      // The logger itself failed; there is nowhere left to report it.
    }
  }
}
