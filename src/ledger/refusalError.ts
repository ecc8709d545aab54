import { JsonRpcCode, WireError } from '../errors/WireError.js';
import type { LedgerRefusal } from './types.js';

/**
 * A ledger refusal as the JSON-RPC error a client reads when a request that was already read is refused (a
 * task's arguments, …): the code that the HTTP front pairs with the status (`-32600` for `429`, `-32603` for
 * `503`), the refusal's text as the message, and in `data` the status, `retryAfterSeconds` and which budget
 * is full.
 * @see docs/security.md#the-ledger
 */
export function refusalError(refusal: LedgerRefusal): WireError {
  const code = refusal.status === 429 ? JsonRpcCode.InvalidRequest : JsonRpcCode.InternalError;
  const { status, retryAfterSeconds, budget, kind, bytes, held, max } = refusal;
  return new WireError(code, refusal.message, { status, retryAfterSeconds, budget, kind, bytes, held, max });
}
