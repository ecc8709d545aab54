import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';
import { isPlainRequest } from './plainRequest.js';

/**
 * Whether a request is, for certain, one the SDK's `isLegacyRequest` classifies as legacy, decided by hand:
 * a GET or DELETE (the SDK classifies every non-POST as legacy), or a POST of one plain JSON-RPC request
 * ({@link isPlainRequest}; not `initialize`) on a session live here (`sessions.has`), with no
 * `MCP-Protocol-Version` header or a legacy one. `false` means "not sure": the caller asks the SDK's
 * classifier, whose answer stands, so a malformed or unusual request is routed as the SDK routes it.
 */
export function isOrdinaryLegacy(
  request: Request,
  body: unknown,
  sessions: { has(sessionId: string): boolean },
): boolean {
  if (request.method.toUpperCase() !== 'POST') return true;
  if (!isPlainRequest(body) || (body as { method: string }).method === 'initialize') return false;
  const { headers } = request;
  const version = headers.get('mcp-protocol-version');
  if (version !== null && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) return false;
  const sessionId = headers.get('mcp-session-id');
  return sessionId !== null && sessions.has(sessionId);
}
