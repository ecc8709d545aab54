import { BearerAuth } from '../../auth/BearerAuth.js';
import { scopeChallengeFor } from '../../auth/scopeChallengeFor.js';
import { ScopeFilter } from '../../auth/ScopeFilter.js';
import type { RequestTracing } from '../../tracing/RequestTracing.js';
import { traced } from './traced.js';
import type { HttpMiddleware } from '../httpMiddleware.js';

/**
 * The OAuth scopes a method with its params needs (a tool's, a prompt's, a resource's), for message `id` of
 * `request` (a `tools/call`'s route, resolved here, is noted on it for the runtime: `runtime/frontNotes.ts`).
 */
export type RequiredScopes = (
  request: Request,
  id: unknown,
  method: string,
  params: Record<string, unknown>,
) => readonly string[];

/** The SDK's `403 insufficient_scope` challenge for a request its token's OAuth scopes do not cover. */
export function scopeChallenge(requiredOf: RequiredScopes, tracing: RequestTracing | undefined): HttpMiddleware {
  return (c, next) => {
    if (c.authInfo === undefined || c.body === undefined) return next(c);
    const challenge = scopeChallengeFor(c.body, ScopeFilter.scopesOf(c.authInfo), (method, params, id) =>
      requiredOf(c.request, id, method, params),
    );
    if (challenge === undefined) return next(c);
    return traced(tracing, c, BearerAuth.scopeChallenge(challenge, c.authInfo as never));
  };
}
