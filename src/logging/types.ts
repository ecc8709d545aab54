import type { Clock } from '../_internal/clock.js';
/**
 * What mcp-fusion logs to: any object with pino's four methods (`pino()`, a `console`-like adapter, your
 * own). Each record is one call with its fields first and a short message second.
 * @example registry.attachToServer(server, { logger: pino() });
 * @see docs/observability.md#logging
 */
export interface Logger {
  debug(fields: LogFields, message: string): void;
  info(fields: LogFields, message: string): void;
  warn(fields: LogFields, message: string): void;
  error(fields: LogFields, message: string): void;
}

/**
 * The fields of one record: `tool`, `action`, `session`, `workflow` (a workflow instance's key),
 * `principal`, `traceId`, `durationMs`, `err` (the error, with its stack), and others per record. Never
 * a token; `arguments` only with `logArguments: true`.
 */
export type LogFields = Record<string, unknown>;

/** The least severe records mcp-fusion passes to the logger (`silent`: none). */
export type FusionLogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

/** The logging options of every serving entry point (part of `AttachOptions`). */
export interface LogOptions {
  /** Where records go: a pino-shaped logger; by default one line per record on stderr (never stdout). */
  logger?: Logger;
  /** The least severe level passed on: the option, else the `MCP_FUSION_LOG` environment variable, else `info`. */
  logLevel?: FusionLogLevel;
  /** Adds a failed or refused call's arguments to its record (`arguments`); off by default, as they may hold personal data. */
  logArguments?: boolean;
  /** How much one value and the waiting output may hold (see {@link LogLimits}). */
  logLimits?: LogLimits;
  /** The clock of the default logger's timestamps and of the refusal throttle (default the wall clock). */
  clock?: Clock;
}

/**
 * The bounds of what one log record, and the log output waiting for a slow reader, may hold: a client's
 * multi-megabyte error message costs a few KiB of log, and a stderr nobody reads costs a bounded queue.
 * @example startServer(registry, { logLimits: { maxValueBytes: 8192 } })
 * @see docs/observability.md#logging
 */
export interface LogLimits {
  /**
   * The most one logged value may take (the message, each field, an error's message, its stack frames), in
   * UTF-8 bytes (2048); the rest is cut and named: `… (truncated, 4194304 bytes)`. Applies to your logger too.
   */
  maxValueBytes?: number;
  /**
   * The most the default logger's lines may wait while stderr is slow, in bytes (1 MiB); past it lines are
   * dropped, and once stderr drains one line says how many (`dropped=…`).
   */
  maxQueueBytes?: number;
}
