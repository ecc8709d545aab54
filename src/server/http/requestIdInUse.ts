import type { JSONRPCErrorResponse, RequestId } from '@modelcontextprotocol/server';
import { JsonRpcCode } from '../../errors/WireError.js';
import { messages } from '../../protocol/messages.js';

/**
 * The answer to a request whose id is the id of a request still running in the same legacy session
 * (`scope: 'session'`) or on the same stdio connection: Invalid Request for that id. JSON-RPC 2.0 asks the
 * client for ids it can match responses by, and the SDK keys a request's cancellation by its id.
 */
export function requestIdInUse(id: RequestId, scope: 'session' | 'connection'): JSONRPCErrorResponse {
  return {
    jsonrpc: '2.0',
    id,
    error: { code: JsonRpcCode.InvalidRequest, message: messages.requestIdInUse(id, scope) },
  };
}
