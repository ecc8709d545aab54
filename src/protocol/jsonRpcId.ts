/** The id of a JSON-RPC message: a string, a number, or `null` when there is none to echo. */
export type JsonRpcId = string | number | null;

/** The id to echo for a parsed message (`null` for a batch, a notification, or an id of another type). */
export function jsonRpcIdOf(message: unknown): JsonRpcId {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return null;
  const id = (message as { id?: unknown }).id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}
