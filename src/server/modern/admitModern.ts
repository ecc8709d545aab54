import {
  classifyInboundRequest,
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  isJsonContentType,
  isJSONRPCRequest,
  LOG_LEVEL_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  RELATED_TASK_META_KEY,
  type JSONRPCRequest,
  type MessageClassification,
} from '@modelcontextprotocol/server';
import { MODERN_REVISION } from './SharedModernTransport.js';

/** A modern request the dispatcher answers itself: the message and its era classification. */
export interface Admitted {
  readonly message: JSONRPCRequest;
  readonly classification: MessageClassification;
}

/** The request field the SDK checks the `Mcp-Name` header against, per method (SEP-2243). */
const NAME_FIELD: Readonly<Record<string, string>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};

const MODERN: MessageClassification = Object.freeze({ era: 'modern', revision: MODERN_REVISION });
/** The keys a JSON-RPC request may have (the SDK's request schema is strict). */
const REQUEST_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);
/** Envelopes (client info, capabilities, log level) the SDK found valid, as JSON text; a client sends one each time. */
const validEnvelopes = new Set<string>();
/** Bounds of that memory: 256 envelopes of at most 2 KiB of text (a larger one is always the SDK's to check). */
const MAX_ENVELOPES = 256;
const MAX_ENVELOPE_TEXT = 2048;

/**
 * The request when the SDK's entry would hand it to a server unchanged: a JSON POST of one request (not a
 * listen) that the SDK classifies as modern at the revision served, with the standard headers its checks
 * require (`Mcp-Name`, where the method has a name, in plain form equal to the body's). Anything else is
 * `undefined`: left to the SDK's entry, which answers it (or refuses it) itself.
 *
 * Classified once: a request whose headers and body have the well-formed shape of such a request, with an
 * envelope the SDK already accepted, is admitted by a hand check; anything else (the first request of a
 * client, every malformed or unusual case) goes through the SDK's `classifyInboundRequest`, whose answer
 * stands, so both give the same answer for every request.
 */
export function admitModern(request: Request, body: unknown): Admitted | undefined {
  if (request.method !== 'POST' || typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const message = body as Record<string, unknown>;
  const method = message.method;
  if (typeof method !== 'string' || method === 'subscriptions/listen') return undefined;
  const { headers } = request;
  const protocolVersionHeader = headers.get('mcp-protocol-version');
  const mcpMethodHeader = headers.get('mcp-method');
  // The SDK admits no other: a header naming another version, or another method, than the body is a mismatch.
  if (protocolVersionHeader !== MODERN_REVISION || mcpMethodHeader !== method) return undefined;
  if (!isJsonContentType(headers.get('content-type'))) return undefined;
  const mcpNameHeader = headers.get('mcp-name');
  const field = Object.hasOwn(NAME_FIELD, method) ? NAME_FIELD[method]! : undefined;
  if (field !== undefined) {
    const value = (message.params as Record<string, unknown> | undefined)?.[field];
    const plain =
      typeof value === 'string' ? mcpNameHeader === value && !value.startsWith('=?base64?') : mcpNameHeader === null;
    if (!plain) return undefined;
  }
  const envelope = wellFormed(message);
  if (envelope !== undefined && validEnvelopes.has(envelope))
    return { message: message as JSONRPCRequest, classification: MODERN };
  if (!isJSONRPCRequest(body)) return undefined;
  const outcome = classifyInboundRequest({
    httpMethod: 'POST',
    protocolVersionHeader,
    mcpMethodHeader,
    ...(mcpNameHeader !== null ? { mcpNameHeader } : {}),
    body,
  });
  if (
    outcome.kind !== 'modern' ||
    outcome.messageKind !== 'request' ||
    outcome.classification.revision !== MODERN_REVISION
  )
    return undefined;
  if (envelope !== undefined && envelope.length <= MAX_ENVELOPE_TEXT) {
    // Full: start again, so that clients seen later are not left out for good.
    if (validEnvelopes.size >= MAX_ENVELOPES) validEnvelopes.clear();
    validEnvelopes.add(envelope);
  }
  return { message: outcome.message, classification: outcome.classification };
}

/**
 * For a body of the plain shape of a modern request (the SDK's strict JSON-RPC request keys, `jsonrpc` 2.0,
 * an integer or string id, not `initialize`, `params._meta` naming the revision served, no related-task key, a
 * string or integer progress token, JSON values only): its envelope's other keys as JSON text, the key of
 * {@link validEnvelopes}. `undefined` when unsure.
 */
function wellFormed(message: Record<string, unknown>): string | undefined {
  for (const key in message) if (!REQUEST_KEYS.has(key)) return undefined;
  const { id, params } = message;
  if (message.jsonrpc !== '2.0' || message.method === 'initialize') return undefined;
  if (typeof id !== 'string' && !Number.isSafeInteger(id)) return undefined;
  if (!isPlainObject(params)) return undefined;
  const meta = params._meta;
  if (!isPlainObject(meta) || meta[PROTOCOL_VERSION_META_KEY] !== MODERN_REVISION) return undefined;
  if (RELATED_TASK_META_KEY in meta) return undefined;
  const progress = meta.progressToken;
  if (progress !== undefined && typeof progress !== 'string' && !Number.isSafeInteger(progress)) return undefined;
  const info = meta[CLIENT_INFO_META_KEY];
  const capabilities = meta[CLIENT_CAPABILITIES_META_KEY];
  const level = meta[LOG_LEVEL_META_KEY];
  if (!isJson(info, 0) || !isJson(capabilities, 0) || !isJson(level, 0)) return undefined;
  // `in`, as the SDK checks required keys: a key present with a JSON value cannot read as absent.
  return `${CLIENT_INFO_META_KEY in meta}${JSON.stringify(info)}\n${CLIENT_CAPABILITIES_META_KEY in meta}${JSON.stringify(capabilities)}\n${LOG_LEVEL_META_KEY in meta}${JSON.stringify(level)}`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/** A value `JSON.stringify` writes faithfully (absent counts; at most 16 levels deep). */
function isJson(value: unknown, depth: number): boolean {
  if (value === undefined || value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (depth > 16) return false;
  if (Array.isArray(value)) {
    for (const item of value) if (item === undefined || !isJson(item, depth + 1)) return false;
    return true;
  }
  if (!isPlainObject(value)) return false;
  for (const key in value) {
    const item = value[key];
    if (!Object.hasOwn(value, key) || item === undefined || !isJson(item, depth + 1)) return false;
  }
  return true;
}
