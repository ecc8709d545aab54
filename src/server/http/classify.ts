import {
  classifyInboundRequest,
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  isJsonContentType,
  isJSONRPCRequest,
  LOG_LEVEL_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  RELATED_TASK_META_KEY,
  SUPPORTED_PROTOCOL_VERSIONS,
  type JSONRPCRequest,
  type MessageClassification,
} from '@modelcontextprotocol/server';

/** The revision the modern (per-request) leg serves. */
export const MODERN_REVISION = '2026-07-28';

/**
 * An HTTP request classified once, at the front of dispatch, and handed on to the leg that serves it: nothing
 * after this step reads the `Mcp-Session-Id` header or checks the body's shape again.
 */
export interface Classified {
  /**
   * `modern`: a request the modern dispatcher answers itself (`admitted`); `legacy`: for certain one the SDK's
   * `isLegacyRequest` classifies as legacy; `undefined`: not sure, the SDK's classifier decides.
   */
  readonly era: 'modern' | 'legacy' | undefined;
  /** The `Mcp-Session-Id` header (`null`: none). */
  readonly sessionId: string | null;
  /** A POST whose body is one request the SDK's schema takes as it is ({@link isPlainRequest}). */
  readonly plain: boolean;
  /** The admitted modern request (with `era` `modern`). */
  readonly admitted: Admitted | undefined;
}

/** A modern request the dispatcher answers itself: the message and its era classification. */
export interface Admitted {
  readonly message: JSONRPCRequest;
  readonly classification: MessageClassification;
}

/** What {@link classifyRequest} consults: the legacy sessions live here, and the modern leg's envelope memory. */
export interface ClassifyParts {
  readonly sessions: { has(sessionId: string): boolean };
  /** Absent when the modern leg answers nothing itself (a user's `server`). */
  readonly envelopes: EnvelopeMemory | undefined;
}

/**
 * Every fast path of the HTTP app, in one step: the era, the session id and the body's shape, each found once.
 * A modern request of the ordinary shape is admitted ({@link admitModern}); a GET or DELETE, or one plain
 * request (not `initialize`) on a session live here with no or a legacy `MCP-Protocol-Version`, is legacy for
 * certain (the SDK classifies every such request as legacy); anything else is left to the SDK's classifier,
 * whose answer stands, so a malformed or unusual request is routed as the SDK routes it.
 */
export function classifyRequest(request: Request, body: unknown, parts: ClassifyParts): Classified {
  const sessionId = request.headers.get('mcp-session-id');
  if (request.method.toUpperCase() !== 'POST') return { era: 'legacy', sessionId, plain: false, admitted: undefined };
  const admitted = parts.envelopes === undefined ? undefined : admitModern(request, body, parts.envelopes);
  if (admitted !== undefined) return { era: 'modern', sessionId, plain: false, admitted };
  const plain = isPlainRequest(body);
  const version = request.headers.get('mcp-protocol-version');
  const ordinary =
    plain &&
    (body as { method: string }).method !== 'initialize' &&
    (version === null || SUPPORTED_PROTOCOL_VERSIONS.includes(version)) &&
    sessionId !== null &&
    parts.sessions.has(sessionId);
  return { era: ordinary ? 'legacy' : undefined, sessionId, plain, admitted: undefined };
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
/** Bounds of an {@link EnvelopeMemory}: 256 envelopes of at most 2 KiB of text (a larger one is always the SDK's to check). */
const MAX_ENVELOPES = 256;
const MAX_ENVELOPE_TEXT = 2048;

/**
 * The envelopes (client info, capabilities, log level) the SDK found valid, as JSON text, for one modern leg: a
 * client sends the same one each time. One per app, never shared across apps.
 */
export class EnvelopeMemory {
  readonly #valid = new Set<string>();

  /** How many envelopes are remembered. */
  get size(): number {
    return this.#valid.size;
  }

  has(envelope: string): boolean {
    return this.#valid.has(envelope);
  }

  remember(envelope: string): void {
    if (envelope.length > MAX_ENVELOPE_TEXT) return;
    // Full: start again, so that clients seen later are not left out for good.
    if (this.#valid.size >= MAX_ENVELOPES) this.#valid.clear();
    this.#valid.add(envelope);
  }
}

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
export function admitModern(request: Request, body: unknown, envelopes: EnvelopeMemory): Admitted | undefined {
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
  if (envelope !== undefined && envelopes.has(envelope))
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
  if (envelope !== undefined) envelopes.remember(envelope);
  return { message: outcome.message, classification: outcome.classification };
}

/**
 * For a body of the plain shape of a modern request (the SDK's strict JSON-RPC request keys, `jsonrpc` 2.0,
 * an integer or string id, not `initialize`, `params._meta` naming the revision served, no related-task key, a
 * string or integer progress token, JSON values only): its envelope's other keys as JSON text, the key of
 * an {@link EnvelopeMemory}. `undefined` when unsure.
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
