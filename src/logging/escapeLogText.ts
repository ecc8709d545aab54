/** The bound of one logged value when none is configured: 2 KiB. */
export const DEFAULT_MAX_VALUE_BYTES = 2048;

/**
 * Characters that must never reach a log line as they are: C0 controls (with `\n`, `\r` and ESC, which starts
 * ANSI sequences), DEL, C1 controls, the Unicode line and paragraph separators, the bidirectional overrides
 * and isolates (they reorder what a reader sees), and lone surrogates. (`\p{Cc}` is C0, DEL and C1; with the
 * `u` flag, `\p{Cs}` matches only a surrogate that is not half of a pair.)
 */
const UNSAFE = /[\p{Cc}\p{Cs}\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;
const QUOTED_UNSAFE = /[\p{Cc}\p{Cs}\u2028\u2029\u202a-\u202e\u2066-\u2069"\\]/u;
const byteLength = (globalThis as { Buffer?: { byteLength(text: string, encoding: 'utf8'): number } }).Buffer
  ?.byteLength;
const SHORT: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f' };

/**
 * `text` made safe for one log line and bounded: every unsafe character (see above) written as a JSON-style
 * escape (`\n`, `\u001b`), so attacker text can neither start a line nor drive the terminal; past `maxBytes`
 * (UTF-8, counted on the escaped text) the rest is cut and replaced by `… (truncated, <n> bytes)` naming the
 * original length. `quoted` also escapes `"` and `\`, so the result between quotes is a JSON string.
 * `totalBytes` names the original length when `text` is only its first `maxBytes + 1` characters or more.
 */
export function escapeLogText(
  text: string,
  maxBytes: number = DEFAULT_MAX_VALUE_BYTES,
  options: { quoted?: boolean; totalBytes?: number } = {},
): string {
  const quoted = options.quoted === true;
  if (text.length <= maxBytes / 3 && !(quoted ? QUOTED_UNSAFE : UNSAFE).test(text)) return text;
  let out = '';
  let bytes = 0;
  for (let i = 0; i < text.length;) {
    const code = text.charCodeAt(i);
    const step = isPair(text, i) ? 2 : 1;
    let piece = text.slice(i, i + step);
    let size = step === 2 ? 4 : utf8Size(code);
    if (step === 1 && (isUnsafe(code) || (quoted && (code === 0x22 || code === 0x5c)))) {
      piece = escapeOf(code);
      size = piece.length;
    }
    if (bytes + size > maxBytes) return `${out}… (truncated, ${options.totalBytes ?? utf8Length(text)} bytes)`;
    out += piece;
    bytes += size;
    i += step;
  }
  return out;
}

/**
 * The UTF-8 length of `text` (a lone surrogate counts 3, as its replacement character): natively where the
 * runtime has `Buffer` (a character loop over a 4 MiB message costs a tenth of a second), else by encoding it.
 */
export function utf8Length(text: string): number {
  return byteLength === undefined ? new TextEncoder().encode(text).length : byteLength(text, 'utf8');
}

/**
 * `text` cut to at most `maxBytes` of UTF-8, with `… (truncated, <n> bytes)` naming its length, and nothing
 * escaped: for a logger that serializes the value itself (JSON escapes by construction).
 */
export function truncateLogText(text: string, maxBytes: number = DEFAULT_MAX_VALUE_BYTES): string {
  if (text.length <= maxBytes / 3) return text;
  const total = utf8Length(text);
  if (total <= maxBytes) return text;
  let bytes = 0;
  let end = 0;
  while (end < text.length) {
    const pair = isPair(text, end);
    const size = pair ? 4 : utf8Size(text.charCodeAt(end));
    if (bytes + size > maxBytes) break;
    bytes += size;
    end += pair ? 2 : 1;
  }
  return `${text.slice(0, end)}… (truncated, ${total} bytes)`;
}

function isUnsafe(code: number): boolean {
  return (
    code < 0x20 ||
    (code >= 0x7f && code <= 0x9f) ||
    code === 0x2028 ||
    code === 0x2029 ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069) ||
    (code >= 0xd800 && code <= 0xdfff)
  );
}

function escapeOf(code: number): string {
  const char = String.fromCharCode(code);
  if (code === 0x22 || code === 0x5c) return `\\${char}`;
  return SHORT[char] ?? `\\u${code.toString(16).padStart(4, '0')}`;
}

/** A high surrogate at `i` followed by a low one: one astral character, 4 bytes of UTF-8. */
function isPair(text: string, i: number): boolean {
  const high = text.charCodeAt(i);
  const low = text.charCodeAt(i + 1);
  return high >= 0xd800 && high <= 0xdbff && low >= 0xdc00 && low <= 0xdfff;
}

function utf8Size(code: number): number {
  return code < 0x80 ? 1 : code < 0x800 ? 2 : 3;
}
