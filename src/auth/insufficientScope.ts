import { errorResult } from '../protocol/normalizeResult.js';
import type { ToolResponse } from '../protocol/types.js';
import { messages } from '../protocol/messages.js';

/** `_meta` key of an `insufficient_scope` refusal: `{ required, missing }`. */
export const INSUFFICIENT_SCOPE_META = 'fusion/insufficientScope';

/**
 * The `isError` result of a call the principal's scopes do not allow, where there is no HTTP status to
 * carry a scope challenge (stdio, in-memory, a bare `attachToServer`): the missing scopes in words and in `_meta`.
 */
export function insufficientScope(
  target: string,
  required: readonly string[],
  missing: readonly string[],
): ToolResponse {
  return errorResult(
    messages.insufficientScope(`"${target}"`, required, missing, 'tool'),
    insufficientScopeMeta(required, missing),
  );
}

/** The `_meta` (a tool's result) or `data` (a JSON-RPC error) of an `insufficient_scope` refusal. */
export function insufficientScopeMeta(
  required: readonly string[],
  missing: readonly string[],
): Record<string, unknown> {
  return { [INSUFFICIENT_SCOPE_META]: { required: [...required], missing: [...missing] } };
}
