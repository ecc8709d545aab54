import { jsonRpcIdOf } from '../../protocol/jsonRpcId.js';
import { httpError } from '../http/httpErrors.js';

/** 503 with a JSON-RPC error: the session could not be read or written, so the request was not served. */
export function storeUnavailable(error: unknown, body: unknown, retry: string): Response {
  const reason = error instanceof Error ? error.message : String(error);
  return httpError(
    'storeUnavailable',
    `Service Unavailable: the session store is unavailable (${reason}); nothing was done. ${retry}`,
    jsonRpcIdOf(body),
  );
}
