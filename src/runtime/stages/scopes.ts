import { missingScopes } from '../../auth/checkScopes.js';
import { insufficientScope, insufficientScopeMeta } from '../../auth/insufficientScope.js';
import { ScopeFilter, type ScopedItem } from '../../auth/ScopeFilter.js';
import { JsonRpcCode, WireError } from '../../errors/WireError.js';
import { messages } from '../../protocol/messages.js';
import { traceRefusal } from '../../tracing/traceRefusal.js';
import { actionKey } from './pickAction.js';
import { defineStage } from './StageDefinition.js';

const requiresScopes = (item: ScopedItem): boolean => (item.requiredScopes ?? []).length > 0;

/**
 * Per-item scopes: a token lacking one of the item's scopes gets `insufficient_scope` naming them, as an
 * `isError` result (tools) or a -32602 error with the scopes in `data` (prompts, resources, completion).
 * Only items that require a scope have it.
 */
export const scopesStage = defineStage({
  name: 'scopes',
  tools: {
    appliesTo: requiresScopes,
    build: () => async (call, next) => {
      const missing = missingScopes(call.tool.requiredScopes, ScopeFilter.scopesOf(call.rctx.extra.authInfo));
      if (missing.length === 0) return next(call);
      const { route, tool } = call;
      const what =
        route.kind === 'flat' ? route.exposed : `${route.exposed} (${route.discriminator} "${actionKey(route, tool)}")`;
      const refusal = insufficientScope(what, tool.requiredScopes!, missing);
      return traceRefusal(call.rctx.trace, refusal, 'insufficient_scope');
    },
  },
  content: {
    appliesTo: ({ item }) => requiresScopes(item),
    build:
      ({ item }) =>
      async (call, next) => {
        const required = item.requiredScopes!;
        const missing = missingScopes(required, ScopeFilter.scopesOf(call.rctx.extra.authInfo));
        if (missing.length === 0) return next(call);
        const text = messages.insufficientScope(call.what, required, missing, call.kind);
        call.rctx.trace?.refusal('insufficient_scope', text);
        throw new WireError(JsonRpcCode.InvalidParams, text, insufficientScopeMeta(required, missing));
      },
  },
});
