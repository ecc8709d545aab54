import type { Surface } from '../../surface/compileSurface.js';
import type { ContentRuntime } from './ContentRuntime.js';
import { resolveCall, type ResolvedCall } from '../stages/pickAction.js';

/**
 * The OAuth scopes a request requires (the HTTP front answers a token lacking one with a scope challenge): a
 * `tools/call` those of its tool (or, for a grouped tool, of the action its arguments pick); `prompts/get`,
 * `resources/read`, `resources/subscribe` and `completion/complete` those of their prompt or resource
 * (`ContentRuntime.requiredScopesOf`); anything else none. `resolved` hears a `tools/call`'s resolution (the
 * HTTP front hands it on, so the call is not resolved again).
 */
export function requiredScopesOf(
  runtime: {
    readonly surface: Surface;
    readonly content: Pick<ContentRuntime<unknown>, 'requiredScopesOf'> | undefined;
  },
  method: string,
  params: Record<string, unknown>,
  resolved?: (call: ResolvedCall) => void,
): readonly string[] {
  if (method !== 'tools/call' || typeof params.name !== 'string')
    return runtime.content?.requiredScopesOf(method, params) ?? [];
  const call = resolveCall(runtime.surface, params.name, params.arguments as Record<string, unknown> | undefined);
  resolved?.(call);
  return call.action?.tool.requiredScopes ?? [];
}
