import type { ServerResponse } from 'node:http';
import { JsonRpcCode } from '../../errors/WireError.js';
import type { JsonRpcId } from '../../protocol/jsonRpcId.js';
import type { LedgerRefusal } from '../../ledger/types.js';

/** What an HTTP error kind answers with: its status, its JSON-RPC code and the headers it always carries. */
export interface HttpErrorShape {
  readonly status: number;
  readonly code: number;
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * Every JSON-RPC error the HTTP front and the sessions answer, by kind: the only place that pairs an HTTP
 * status with a JSON-RPC code (and `Retry-After` or `Allow`). The message, written for the client, is the
 * caller's; {@link httpError} and {@link writeHttpError} write the body.
 */
export const HTTP_ERRORS = {
  /** The server is closing: retry elsewhere. */
  shuttingDown: { status: 503, code: JsonRpcCode.InternalError, headers: { 'Retry-After': '1' } },
  /** A `Host` header that is not `host[:port]`. */
  malformedHost: { status: 400, code: JsonRpcCode.InvalidRequest },
  /** A path other than the MCP endpoint's. */
  notFound: { status: 404, code: JsonRpcCode.InvalidRequest },
  /** An HTTP method the endpoint does not serve. */
  methodNotAllowed: { status: 405, code: JsonRpcCode.InvalidRequest, headers: { Allow: 'POST, GET, DELETE, OPTIONS' } },
  /** A GET or DELETE in the 2026-07-28 era, which has no stream or session for them. */
  noModernStream: { status: 405, code: JsonRpcCode.InvalidRequest, headers: { Allow: 'POST' } },
  /** A POST whose `Content-Type` is not JSON. */
  unsupportedMediaType: { status: 415, code: JsonRpcCode.InvalidRequest },
  /** A body over `maxBodyBytes`. */
  payloadTooLarge: { status: 413, code: JsonRpcCode.InvalidRequest },
  /** A body that is not JSON. */
  parseError: { status: 400, code: JsonRpcCode.ParseError },
  /** A `tools/call` whose arguments hold a `__proto__` key. */
  unknownField: { status: 400, code: JsonRpcCode.InvalidParams },
  /** A batch holding more tool calls than the server ever runs at once. */
  batchTooLarge: { status: 400, code: JsonRpcCode.InvalidRequest },
  /** `limits.maxInFlightCalls` reached. */
  callsBusy: { status: 503, code: JsonRpcCode.InternalError, headers: { 'Retry-After': '1' } },
  /** A legacy request without a usable `Mcp-Session-Id`. */
  noSession: { status: 400, code: JsonRpcCode.InvalidRequest },
  /** A legacy session id that is unknown, expired or closed. */
  sessionNotFound: { status: 404, code: JsonRpcCode.SessionNotFound },
  /** A legacy session id opened by another principal. */
  sessionForbidden: { status: 403, code: JsonRpcCode.InvalidRequest },
  /** Legacy `initialize` params of the wrong shape or depth. */
  invalidInitialize: { status: 400, code: JsonRpcCode.InvalidParams },
  /** Legacy `initialize` params over their size limit. */
  initializeTooLarge: { status: 413, code: JsonRpcCode.InvalidParams },
  /** The caller holds its maximum of legacy sessions. */
  tooManySessions: { status: 429, code: JsonRpcCode.InvalidRequest, headers: { 'Retry-After': '5' } },
  /** The server holds its maximum of legacy sessions, all in use. */
  sessionsFull: { status: 503, code: JsonRpcCode.InternalError, headers: { 'Retry-After': '10' } },
  /** The session store could not be read or written. */
  storeUnavailable: { status: 503, code: JsonRpcCode.InternalError, headers: { 'Retry-After': '1' } },
  /** The caller holds its maximum of `subscriptions/listen` streams. */
  tooManyListenStreams: { status: 429, code: JsonRpcCode.InvalidRequest, headers: { 'Retry-After': '5' } },
  /** The server holds its maximum of listen streams (or of their filters' bytes). */
  listenBusy: { status: 503, code: JsonRpcCode.InternalError, headers: { 'Retry-After': '30' } },
  /** A listen filter over its size. */
  listenFilterTooLarge: { status: 400, code: JsonRpcCode.InvalidParams },
  /** A `Last-Event-ID` naming no stream this caller may resume. */
  resumeUnknown: { status: 404, code: JsonRpcCode.InvalidRequest },
  /** A `Last-Event-ID` whose events were evicted from the event store. */
  resumeEvicted: { status: 410, code: JsonRpcCode.InvalidRequest },
  /**
   * The ledger refused to hold more bytes for the caller ({@link heldBytesRefused}): `429` for its principal's
   * or peer's budget, `503` for the total; status and `Retry-After` are the refusal's.
   */
  heldBytesFull: { status: 429, code: JsonRpcCode.InvalidRequest, headers: { 'Retry-After': '5' } },
  /** The app failed. */
  internal: { status: 500, code: JsonRpcCode.InternalError },
} as const satisfies Record<string, HttpErrorShape>;

/** A kind of HTTP error (a key of {@link HTTP_ERRORS}). */
export type HttpErrorKind = keyof typeof HTTP_ERRORS;

/** A JSON-RPC error message. */
export interface JsonRpcErrorMessage {
  readonly jsonrpc: '2.0';
  readonly error: { readonly code: number; readonly message: string };
  readonly id: JsonRpcId;
}

/** The JSON-RPC error message of `kind` (`id` null by default: the request could not be read or routed). */
export function errorMessage(kind: HttpErrorKind, message: string, id: JsonRpcId = null): JsonRpcErrorMessage {
  return { jsonrpc: '2.0', error: { code: HTTP_ERRORS[kind].code, message }, id };
}

/** The answer of `kind` as a web `Response`: its status and headers, the JSON-RPC error as the body. */
export function httpError(kind: HttpErrorKind, message: string, id: JsonRpcId = null): Response {
  const shape: HttpErrorShape = HTTP_ERRORS[kind];
  return Response.json(errorMessage(kind, message, id), { status: shape.status, headers: shape.headers ?? {} });
}

/** Writes the answer of `kind` to a Node response whose headers are not sent yet (the bytes of {@link httpError}). */
export function writeHttpError(res: ServerResponse, kind: HttpErrorKind, message: string): void {
  const shape: HttpErrorShape = HTTP_ERRORS[kind];
  const body = JSON.stringify(errorMessage(kind, message));
  const headers = { ...shape.headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) };
  res.writeHead(shape.status, headers).end(body);
}

/**
 * The one answer to a hold the ledger refused (`heldBytesFull`): the refusal's status (`429` principal or peer,
 * `503` total), `Retry-After: <refusal.retryAfterSeconds>`, and a JSON-RPC error whose message is the refusal's.
 */
export function heldBytesRefused(refusal: LedgerRefusal, id: JsonRpcId = null): Response {
  return Response.json(errorMessage('heldBytesFull', refusal.message, id), {
    status: refusal.status,
    headers: { 'Retry-After': String(refusal.retryAfterSeconds) },
  });
}
