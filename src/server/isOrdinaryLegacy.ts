import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';

/** The keys a JSON-RPC request may have (the SDK's request schema is strict). */
const REQUEST_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);

/**
 * Whether a request is, for certain, one the SDK's `isLegacyRequest` classifies as legacy, decided by hand:
 * a GET or DELETE (the SDK classifies every non-POST as legacy), or a POST of one well-formed JSON-RPC
 * request (not `initialize`) on a session live here (`sessions.has`), with no `_meta` but a progress token and no
 * `MCP-Protocol-Version` header or a legacy one in plain form. `false` means "not sure": the caller asks the
 * SDK's classifier, whose answer stands, so a malformed or unusual request is routed as the SDK routes it.
 */
export function isOrdinaryLegacy(
  request: Request,
  body: unknown,
  sessions: { has(sessionId: string): boolean },
): boolean {
  if (request.method.toUpperCase() !== 'POST') return true;
  if (typeof body !== 'object' || body === null || Object.getPrototypeOf(body) !== Object.prototype) return false;
  const message = body as Record<string, unknown>;
  for (const key in message) if (!REQUEST_KEYS.has(key)) return false;
  const { method, params } = message;
  if (message.jsonrpc !== '2.0' || !isId(message.id) || typeof method !== 'string' || method === 'initialize')
    return false;
  if (params !== undefined && !plainParams(params)) return false;
  const { headers } = request;
  const version = headers.get('mcp-protocol-version');
  if (version !== null && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) return false;
  const sessionId = headers.get('mcp-session-id');
  return sessionId !== null && sessions.has(sessionId);
}

/** A request id or progress token the SDK's schema takes: a string or a (safe) integer. */
function isId(value: unknown): boolean {
  return typeof value === 'string' || Number.isSafeInteger(value);
}

/** Params the SDK's schema takes without an envelope claim: an object whose `_meta` holds a progress token at most. */
function plainParams(params: unknown): boolean {
  if (typeof params !== 'object' || params === null || Array.isArray(params)) return false;
  const meta = (params as { _meta?: unknown })._meta;
  if (meta === undefined) return true;
  if (typeof meta !== 'object' || meta === null || Object.getPrototypeOf(meta) !== Object.prototype) return false;
  for (const key in meta) if (key !== 'progressToken') return false;
  const token = (meta as { progressToken?: unknown }).progressToken;
  return token === undefined || isId(token);
}
