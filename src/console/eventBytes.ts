import type { ConsolePayload } from './types.js';

/** What is kept of a field cut by {@link boundPayload}: a quarter of the event's bound at most. */
const FIELD_SHARE = 4;
/** Past this many nodes an argument tree is measured no further (its size is then a lower bound). */
const MAX_NODES = 200_000;

/** The size of a string in UTF-8 once written as JSON (quotes and the usual escapes counted). */
function stringBytes(text: string): number {
  let bytes = 2;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c) bytes += c < 0x20 ? 6 : 2;
    else if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    // A surrogate pair is 4 bytes in UTF-8: 2 + 2 here.
    else if (c >= 0xd800 && c <= 0xdfff) bytes += 2;
    else bytes += 3;
  }
  return bytes;
}

/**
 * About how many bytes `value` takes written as JSON (UTF-8), without writing it: the console measures every
 * event it keeps with this, so that its buffer is bounded in bytes. Cycles and very deep or wide trees stop
 * the count (it is then a lower bound, and such an event is cut anyway).
 */
export function jsonBytes(value: unknown): number {
  let nodes = 0;
  const seen = new Set<object>();
  const walk = (v: unknown): number => {
    if (++nodes > MAX_NODES) return 0;
    if (typeof v === 'string') return stringBytes(v);
    if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v).length;
    if (v === null || typeof v !== 'object') return 4;
    if (seen.has(v)) return 0;
    seen.add(v);
    // Brackets, and a comma between items (one too many counted, taken back at the end).
    let bytes = 1;
    if (Array.isArray(v)) for (const item of v) bytes += walk(item) + 1;
    else
      for (const [key, item] of Object.entries(v))
        if (item !== undefined && typeof item !== 'function') bytes += stringBytes(key) + 1 + walk(item) + 1;
    seen.delete(v);
    return Math.max(2, bytes);
  };
  return walk(value);
}

/** The first `max` characters of `value` as JSON, written no further than that (a preview of a huge value). */
export function jsonPrefix(value: unknown, max: number): string {
  let out = '';
  const seen = new Set<object>();
  const put = (text: string): boolean => {
    out += text.length > max - out.length ? text.slice(0, Math.max(0, max - out.length)) : text;
    return out.length < max;
  };
  const write = (v: unknown): boolean => {
    if (typeof v === 'string') return put(JSON.stringify(v.length > max ? v.slice(0, max) : v));
    if (typeof v === 'bigint') return put(v.toString());
    if (v === null || typeof v !== 'object') return put(JSON.stringify(v) ?? 'null');
    if (seen.has(v)) return put('"[cycle]"');
    seen.add(v);
    const array = Array.isArray(v);
    if (!put(array ? '[' : '{')) return false;
    let first = true;
    for (const [key, item] of array ? v.entries() : Object.entries(v)) {
      if (item === undefined || typeof item === 'function') continue;
      if (!first && !put(',')) return false;
      first = false;
      if (!array && !put(`${JSON.stringify(key)}:`)) return false;
      if (!write(item)) return false;
    }
    seen.delete(v);
    return put(array ? ']' : '}');
  };
  write(value);
  return out;
}

/** A payload as the console keeps it: cut to its bound when it was larger, and its size as kept. */
export interface BoundedPayload {
  readonly payload: ConsolePayload;
  /** Bytes of JSON kept. */
  readonly bytes: number;
  /** The size the event had before it was cut (absent: kept whole). */
  readonly originalBytes?: number;
}

/**
 * Bounds one event to `maxBytes` of JSON: an event within it is kept as it came (never copied); a larger one is
 * kept cut, each large field replaced by its beginning and a note naming its whole size (a string: its first
 * characters; arguments or any other value: the beginning of its JSON, as a string). The call is never
 * refused for it: the console is a viewing tool, and keeps what it can.
 */
export function boundPayload(payload: ConsolePayload, maxBytes: number): BoundedPayload {
  const bytes = jsonBytes(payload);
  if (bytes <= maxBytes) return { payload, bytes };
  const share = Math.max(64, Math.floor(maxBytes / FIELD_SHARE));
  const cut: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(payload)) {
    const size = jsonBytes(value);
    if (size <= share) cut[key] = value;
    else if (typeof value === 'string') cut[key] = `${value.slice(0, share)}… [cut by the console: ${size} bytes]`;
    else cut[key] = `${jsonPrefix(value, share)}… [cut by the console: ${size} bytes of JSON]`;
  }
  let kept = jsonBytes(cut);
  if (kept > maxBytes) {
    // Many middling fields: keep the small ones only.
    for (const [key, value] of Object.entries(cut))
      if (key !== 'type' && jsonBytes(value) > 256) cut[key] = '[cut by the console]';
    kept = jsonBytes(cut);
  }
  return { payload: cut as unknown as ConsolePayload, bytes: kept, originalBytes: bytes };
}
