/**
 * JSON texts made once for values that never change (a frozen `tools/list`), found by identity when an answer
 * carrying them is serialized: a list of 100 tools is about 28 kB of JSON, and every `tools/list` answer would
 * otherwise stringify it again.
 */

const fixed = new WeakSet<object>();
const texts = new WeakMap<object, string>();

/**
 * Marks `value` as fixed: its JSON text is computed on first use and reused after. The caller promises that
 * nothing reachable from `value` changes from now on (it is frozen here, shallowly, to hold it to that); a new
 * list is a new value. Returns `value`.
 */
export function fixedJson<T extends object>(value: T): T {
  fixed.add(Object.freeze(value));
  return value;
}

function isPlain(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return (proto === Object.prototype || proto === null) && typeof (value as { toJSON?: unknown }).toJSON !== 'function';
}

function textOf(value: object): string {
  let text = texts.get(value);
  if (text === undefined) {
    text = JSON.stringify(value);
    texts.set(value, text);
  }
  return text;
}

/** True when one of `result`'s own values is a {@link fixedJson} value. */
function holdsFixed(result: Record<string, unknown>): boolean {
  for (const key in result) {
    const value = result[key];
    if (typeof value === 'object' && value !== null && fixed.has(value)) return true;
  }
  return false;
}

/** A plain object's JSON as `JSON.stringify` writes it (own keys in order, unserializable values left out). */
function objectText(object: Record<string, unknown>, member: (value: unknown) => string | undefined): string {
  let text = '{';
  for (const key of Object.keys(object)) {
    const value = member(object[key]);
    if (value === undefined) continue;
    text += `${text.length === 1 ? '' : ','}${JSON.stringify(key)}:${value}`;
  }
  return `${text}}`;
}

const memberText = (value: unknown): string | undefined =>
  typeof value === 'object' && value !== null && fixed.has(value) ? textOf(value) : JSON.stringify(value);

/**
 * `JSON.stringify(message)`, byte for byte, with a fixed value among the members of the message's `result`
 * taken from its cached text. A message without one is stringified as it is.
 */
export function stringifyMessage(message: object): string {
  const result = (message as { result?: unknown }).result;
  if (!isPlain(message) || !isPlain(result) || !holdsFixed(result)) return JSON.stringify(message);
  return objectText(message, (value) => (value === result ? objectText(result, memberText) : JSON.stringify(value)));
}
