import { errorResult } from '../protocol/normalizeResult.js';
import type { ToolResponse } from '../protocol/types.js';

/** `_meta` key of an `insufficient_scope` refusal: `{ required, missing }`. */
export const INSUFFICIENT_SCOPE_META = 'fusion/insufficientScope';

/**
 * The `isError` result of a call the principal's scopes do not allow, where there is no HTTP status to
 * carry a scope challenge (stdio, in-memory, a bare `attachToServer`): the missing scopes in words and in `_meta`.
 */
export function insufficientScope(target: string, required: readonly string[], missing: readonly string[]): ToolResponse {
  return errorResult(
    `insufficient_scope: "${target}" needs the scope${required.length > 1 ? 's' : ''} ${required.join(' ')}; the access token lacks ${missing.join(' ')}. Ask the user to authorize ${missing.length > 1 ? 'these scopes' : 'this scope'} (a new token with scope="${required.join(' ')}"), or continue without this tool.`,
    { [INSUFFICIENT_SCOPE_META]: { required: [...required], missing: [...missing] } },
  );
}
