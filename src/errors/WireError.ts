/** JSON-RPC error codes mcp-fusion answers with. */
export const JsonRpcCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** Server-defined: a legacy session id that is unknown, expired or closed. */
  SessionNotFound: -32001,
  /** Server-defined: the request came before the legacy `initialize` handshake. */
  NotInitialized: -32002,
  /** MCP: a resource URI that names nothing. */
  ResourceNotFound: -32002,
} as const;

/**
 * A protocol-level failure that must reach the client as a JSON-RPC error (not an `isError` result).
 * The SDK adapter turns it into the SDK's own error type.
 */
export class WireError extends Error {
  readonly code: number;
  readonly data: unknown;

  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.name = 'WireError';
    this.code = code;
    this.data = data;
  }
}
