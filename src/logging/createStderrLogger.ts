import { formatLogLine } from './formatLogLine.js';
import type { Logger } from './types.js';

/**
 * The default logger: one line per record on stderr (never stdout, so a stdio server's protocol stream
 * stays clean), an error's stack frames indented below it. `write` receives each record's text instead
 * (tests, or a stream of your own); `now` is the clock of the timestamps.
 * @example createStderrLogger()  // [mcp-fusion] 2026-11-26T08:00:58.123Z ERROR tool handler threw tool=notes.delete …
 */
export function createStderrLogger(write: (text: string) => void = stderrWrite, now: () => number = Date.now): Logger {
  const at = (level: string) => (fields: Record<string, unknown>, message: string) =>
    write(formatLogLine(level, fields, message, now()));
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

function stderrWrite(text: string): void {
  const stderr = (globalThis as { process?: { stderr?: { write?: (s: string) => unknown } } }).process?.stderr;
  // Runtimes without process.stderr (Workers) get the console's error stream, which is stderr too.
  if (typeof stderr?.write === 'function') stderr.write(text);
  else console.error(text.trimEnd());
}
