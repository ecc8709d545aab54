import type { ScopeChallenge } from '@modelcontextprotocol/server';
import { missingScopes } from './checkScopes.js';

/**
 * The scopes one JSON-RPC request's target requires (a tool call's tool or action, a prompt, a resource);
 * `id` is the request's id (what is found for it may be noted under it).
 */
export type RequiredScopesOf = (method: string, params: Record<string, unknown>, id: unknown) => readonly string[];

/**
 * The SDK `ScopeChallenge` for an HTTP body (one JSON-RPC message or a batch) whose target requires scopes
 * the verified token lacks: the complete scope set to ask for, and which are missing. Pure.
 */
export function scopeChallengeFor(
  body: unknown,
  granted: readonly string[],
  requiredOf: RequiredScopesOf,
): ScopeChallenge | undefined {
  for (const message of Array.isArray(body) ? body : [body]) {
    if (typeof message !== 'object' || message === null) continue;
    const { method, params, id } = message as { method?: unknown; params?: unknown; id?: unknown };
    if (typeof method !== 'string' || id === undefined) continue;
    const required = requiredOf(
      method,
      typeof params === 'object' && params !== null ? (params as Record<string, unknown>) : {},
      id,
    );
    const missing = missingScopes(required, granted);
    if (missing.length > 0) {
      return {
        scopes: required as [string, ...string[]],
        errorDescription: `${method} needs the scopes ${required.join(' ')}; the token lacks ${missing.join(' ')}`,
      };
    }
  }
  return undefined;
}
