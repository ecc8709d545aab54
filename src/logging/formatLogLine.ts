import { DEFAULT_MAX_VALUE_BYTES, escapeLogText, truncateLogText, utf8Length } from './escapeLogText.js';
import type { LogFields } from './types.js';

/** One record to format: its level, fields, message and time (ms since the epoch). */
export interface LogRecord {
  level: string;
  fields: LogFields;
  message: string;
  at: number;
}

/**
 * One record as text: `[mcp-fusion] <time> <LEVEL> <message> key=value…` on one line, then, for a record
 * with an error (`err`), the error's stack frames on the following lines (indented, as Node prints them).
 * Values with spaces are quoted as JSON strings; objects are JSON. Every message, key, value and frame is
 * escaped ({@link escapeLogText}: no control character, newline or ANSI sequence gets through) and bounded to
 * `maxValueBytes` (the frames of one error together), the cut named with the original length.
 */
export function formatLogLine(record: LogRecord, maxValueBytes: number = DEFAULT_MAX_VALUE_BYTES): string {
  const { level, fields, message, at } = record;
  let line = `[mcp-fusion] ${new Date(at).toISOString()} ${level.toUpperCase()} ${escapeLogText(message, maxValueBytes)}`;
  let err: unknown;
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    const text = key === 'err' ? errorHead(value, maxValueBytes) : textOf(value, maxValueBytes);
    if (key === 'err') err = value;
    line += ` ${escapeLogText(key, maxValueBytes)}=${quote(text, maxValueBytes)}`;
  }
  const frames = err instanceof Error ? stackFrames(err, maxValueBytes) : '';
  return `${line}${frames}\n`;
}

function textOf(value: unknown, max: number): string {
  return typeof value === 'string' ? value : safeJson(value, max);
}

function errorHead(error: unknown, max: number): string {
  if (error instanceof Error) return `${String(error.name)}: ${String(error.message)}`;
  return textOf(error, max);
}

/**
 * The stack's frames, without its head (the name and message, already on the record's line: skipped by its
 * length where the stack starts with them, so a message holding `\n    at …` cannot pass for frames), each
 * line escaped, together at most `max` bytes.
 */
function stackFrames(error: Error, max: number): string {
  const stack = typeof error.stack === 'string' ? error.stack : '';
  const message = typeof error.message === 'string' ? error.message : '';
  const name = String(error.name);
  const head = message === '' ? name : `${name}: ${message}`;
  const rest = stack.startsWith(head) ? stack.slice(head.length) : stack;
  const start = rest.search(/\n\s+at /);
  if (start === -1) return '';
  const frames = rest.slice(start + 1);
  let out = '';
  let bytes = 0;
  for (let from = 0; from < frames.length;) {
    const newline = frames.indexOf('\n', from);
    const end = newline === -1 ? frames.length : newline;
    const line = escapeLogText(frames.slice(from, end), max);
    bytes += utf8Length(line) + 1;
    if (bytes > max) return `${out}\n    … (truncated, ${utf8Length(frames)} bytes)`;
    out += `\n${line}`;
    from = end + 1;
  }
  return out;
}

/** `text` escaped, and between quotes (as a JSON string) when it is empty, holds a space or was cut. */
function quote(text: string, max: number): string {
  const bare = escapeLogText(text, max);
  return bare === '' || /\s/.test(bare) ? `"${escapeLogText(text, max, true)}"` : bare;
}

/** JSON of `value`, its long strings cut first (so a huge argument is not copied whole), `String()` when it cannot be. */
function safeJson(value: unknown, max: number): string {
  try {
    const json = JSON.stringify(value, (_k, v: unknown) =>
      typeof v === 'bigint' ? v.toString() : typeof v === 'string' ? truncateLogText(v, max) : v,
    );
    return json ?? String(value);
  } catch {
    return String(value);
  }
}
