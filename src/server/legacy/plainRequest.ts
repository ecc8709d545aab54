/** The keys a JSON-RPC request may have (the SDK's request schema is strict). */
const REQUEST_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);

/**
 * Whether `body` is, for certain, one JSON-RPC request the SDK's schemas take without an envelope claim,
 * told by hand: a plain object of the request's keys only, `jsonrpc` "2.0", a string or integer id, a
 * string method, and params (if any) an object whose `_meta` holds a progress token at most. `false` means
 * "not sure": the caller asks the SDK's own schema, whose answer stands.
 */
export function isPlainRequest(body: unknown): boolean {
  if (typeof body !== 'object' || body === null || Object.getPrototypeOf(body) !== Object.prototype) return false;
  const message = body as Record<string, unknown>;
  for (const key in message) if (!REQUEST_KEYS.has(key)) return false;
  const { params } = message;
  return (
    message.jsonrpc === '2.0' &&
    isId(message.id) &&
    typeof message.method === 'string' &&
    (params === undefined || plainParams(params))
  );
}

/** A request id or progress token the SDK's schema takes: a string or a (safe) integer. */
function isId(value: unknown): boolean {
  return typeof value === 'string' || Number.isSafeInteger(value);
}

function plainParams(params: unknown): boolean {
  if (typeof params !== 'object' || params === null || Array.isArray(params)) return false;
  const meta = (params as { _meta?: unknown })._meta;
  if (meta === undefined) return true;
  if (typeof meta !== 'object' || meta === null || Object.getPrototypeOf(meta) !== Object.prototype) return false;
  for (const key in meta) if (key !== 'progressToken') return false;
  const token = (meta as { progressToken?: unknown }).progressToken;
  return token === undefined || isId(token);
}
