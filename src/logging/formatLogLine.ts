import { DEFAULT_MAX_VALUE_BYTES, escapeLogText, utf8Length } from './escapeLogText.js';
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
    if (key === 'err') err = value;
    const text = key === 'err' && value instanceof Error ? errorHead(value, maxValueBytes) : textOf(value);
    line += ` ${escapeLogText(key, maxValueBytes)}=${quote(text, maxValueBytes)}`;
  }
  const frames = err instanceof Error ? stackFrames(err, maxValueBytes) : '';
  return `${line}${frames}\n`;
}

function textOf(value: unknown): string {
  return typeof value === 'string' ? value : safeJson(value);
}

/**
 * `<name>: <message>`, of the message only what can be kept (joining a 4 MiB message to the name would copy
 * it), with the full length for the cut's note.
 */
function errorHead(error: Error, max: number): { text: string; totalBytes: number } {
  const name = String(error.name);
  const message = String(error.message);
  return { text: `${name}: ${message.slice(0, max + 1)}`, totalBytes: utf8Length(name) + 2 + utf8Length(message) };
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
  const head = message === '' ? name.length : name.length + 2 + message.length;
  // Compared as slices: `===` compares memory, `startsWith` a character at a time (10 ms on 4 MiB).
  const headed =
    stack.slice(0, name.length) === name &&
    (message === '' ||
      (stack.slice(name.length, name.length + 2) === ': ' && stack.slice(name.length + 2, head) === message));
  const rest = headed ? stack.slice(head) : stack;
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
function quote(value: string | { text: string; totalBytes: number }, max: number): string {
  const [text, totalBytes] = typeof value === 'string' ? [value, undefined] : [value.text, value.totalBytes];
  const bare = escapeLogText(text, max, totalBytes === undefined ? {} : { totalBytes });
  if (bare !== '' && !/\s/.test(bare)) return bare;
  return `"${escapeLogText(text, max, totalBytes === undefined ? { quoted: true } : { quoted: true, totalBytes })}"`;
}

/** JSON of `value` (bigints as strings), `String()` when it has none; the caller cuts it. */
function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)) ?? String(value);
  } catch {
    return String(value);
  }
}
