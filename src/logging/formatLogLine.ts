import type { LogFields } from './types.js';

/**
 * One record as text: `[mcp-fusion] <time> <LEVEL> <message> key=value…` on one line, then, for a record
 * with an error (`err`), the error's stack frames on the following lines (indented, as Node prints them).
 * Values with spaces are JSON-quoted; objects are JSON.
 */
export function formatLogLine(level: string, fields: LogFields, message: string, at: number): string {
  let line = `[mcp-fusion] ${new Date(at).toISOString()} ${level.toUpperCase()} ${message}`;
  let err: unknown;
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    if (key === 'err') {
      err = value;
      line += ` err=${quote(errorHead(value))}`;
    } else line += ` ${key}=${quote(typeof value === 'string' ? value : safeJson(value))}`;
  }
  const frames = err instanceof Error ? stackFrames(err) : '';
  return `${line}${frames}\n`;
}

function errorHead(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return typeof error === 'string' ? error : safeJson(error);
}

/** The stack without its first lines (they repeat the name and message, already on the record's line). */
function stackFrames(error: Error): string {
  const stack = error.stack ?? '';
  const start = stack.search(/\n\s+at /);
  return start === -1 ? '' : stack.slice(start);
}

function quote(text: string): string {
  return text === '' || /\s/.test(text) ? JSON.stringify(text) : text;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)) ?? String(value);
  } catch {
    return String(value);
  }
}
