import { truncateLogText, utf8Length } from './escapeLogText.js';

/**
 * `value` cut to about `maxBytes` for a logger that serializes it itself (pino): a long string cut and
 * named ({@link truncateLogText}), an error with a long message or stack copied with both cut (same
 * prototype, so it still serializes as an error), an object whose JSON is too long replaced by that JSON
 * cut; anything within the bound is passed on as it is.
 */
export function boundLogValue(value: unknown, maxBytes: number): unknown {
  if (typeof value === 'string') return truncateLogText(value, maxBytes);
  if (value instanceof Error) return boundError(value, maxBytes);
  if (value === null || typeof value !== 'object') return value;
  const json = jsonOf(value);
  return json === undefined || utf8Length(json) <= maxBytes ? value : truncateLogText(json, maxBytes);
}

function boundError(error: Error, maxBytes: number): Error {
  const message = typeof error.message === 'string' ? error.message : '';
  const stack = typeof error.stack === 'string' ? error.stack : '';
  if (utf8Length(message) <= maxBytes && utf8Length(stack) <= 2 * maxBytes) return error;
  const copy = Object.create(Object.getPrototypeOf(error) as object) as Error;
  const fields = copy as unknown as Record<string, unknown>;
  for (const [key, field] of Object.entries(error))
    fields[key] = field instanceof Error ? field : boundLogValue(field, maxBytes);
  Object.defineProperties(copy, {
    name: { value: error.name, writable: true, configurable: true },
    message: { value: truncateLogText(message, maxBytes), writable: true, configurable: true },
    stack: { value: boundStack(stack, message, maxBytes), writable: true, configurable: true },
  });
  return copy;
}

/** The stack with the message in its head cut, and its frames cut to `maxBytes`. */
function boundStack(stack: string, message: string, maxBytes: number): string {
  const at = message === '' ? -1 : stack.indexOf(message);
  const head = at === -1 ? '' : stack.slice(0, at) + truncateLogText(message, maxBytes);
  const frames = at === -1 ? stack : stack.slice(at + message.length);
  return head + truncateLogText(frames, maxBytes);
}

function jsonOf(value: object): string | undefined {
  try {
    return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
  } catch {
    return undefined;
  }
}
