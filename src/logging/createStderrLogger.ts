import { formatLogLine } from './formatLogLine.js';
import { LogQueue, type LogStream } from './LogQueue.js';
import type { LogLimits, Logger } from './types.js';

/** Loggers that escape and bound what they write themselves (so the operator log does not cut twice). */
export const selfBounded = new WeakSet<Logger>();
/** The queue a default logger writes through (its waiting bytes are charged to the runtime's ledger). */
export const queueOf = new WeakMap<Logger, LogQueue>();

/** Where the default logger writes: {@link LogLimits} and, instead of `process.stderr`, another stream. */
export interface StderrLoggerOptions extends LogLimits {
  /** The stream written to through the bounded queue (default `process.stderr`). */
  stream?: LogStream;
}

/**
 * The default logger: one line per record on stderr (never stdout, so a stdio server's protocol stream
 * stays clean), an error's stack frames indented below it. Every value is escaped and cut to
 * `maxValueBytes`; while stderr is slow, lines wait in its queue of `maxQueueBytes`, then are dropped and
 * counted (see {@link LogLimits}). `write` receives each record's text instead of the stream (tests, or a
 * sink of your own); `now` is the clock of the timestamps.
 * @example createStderrLogger()  // [mcp-fusion] 2026-11-26T08:00:58.123Z ERROR tool handler threw tool=notes.delete …
 * @see docs/observability.md#logging
 */
export function createStderrLogger(
  write?: (text: string) => void,
  now: () => number = Date.now,
  options: StderrLoggerOptions = {},
): Logger {
  const max = options.maxValueBytes;
  const queue = write === undefined ? streamQueue(options, now) : undefined;
  const sink = write ?? (queue === undefined ? consoleWrite : (text: string) => queue.write(text));
  const at = (level: string) => (fields: Record<string, unknown>, message: string) =>
    sink(formatLogLine({ level, fields, message, at: now() }, max));
  const logger: Logger = { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
  selfBounded.add(logger);
  if (queue !== undefined) queueOf.set(logger, queue);
  return logger;
}

function streamQueue(options: StderrLoggerOptions, now: () => number): LogQueue | undefined {
  const stream = options.stream ?? (globalThis as { process?: { stderr?: LogStream } }).process?.stderr;
  // Runtimes without process.stderr (Workers) get the console's error stream, which is stderr too.
  if (typeof stream?.write !== 'function' || typeof stream.once !== 'function') return undefined;
  const queue: LogQueue = LogQueue.of(
    stream,
    (dropped) =>
      formatLogLine({
        level: 'warn',
        fields: { dropped, maxQueueBytes: queue.maxBytes },
        message: 'log lines dropped while the log reader was slow',
        at: now(),
      }),
    options.maxQueueBytes,
  );
  return queue;
}

function consoleWrite(text: string): void {
  console.error(text.trimEnd());
}
