import type { FusionRuntime } from './FusionRuntime.js';
import { pickAction } from './pickAction.js';

/**
 * The OAuth scopes a request requires (the HTTP front answers a token lacking one with a scope challenge): a
 * `tools/call` those of its tool (or, for a grouped tool, of the action its arguments pick); `prompts/get`,
 * `resources/read`, `resources/subscribe` and `completion/complete` those of their prompt or resource
 * (`ContentRuntime.requiredScopesOf`); anything else none.
 */
export function requiredScopesOf(
  runtime: Pick<FusionRuntime, 'surface' | 'content'>,
  method: string,
  params: Record<string, unknown>,
): readonly string[] {
  if (method !== 'tools/call' || typeof params.name !== 'string')
    return runtime.content?.requiredScopesOf(method, params) ?? [];
  const route = runtime.surface.routes.get(params.name);
  if (route === undefined) return [];
  const picked = pickAction(route, params.arguments as Record<string, unknown> | undefined);
  return 'tool' in picked ? (picked.tool.requiredScopes ?? []) : [];
}
