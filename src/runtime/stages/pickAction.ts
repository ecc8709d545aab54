import type { FusionTool, ToolResponse } from '../../protocol/types.js';
import { errorResult } from '../../protocol/normalizeResult.js';
import { messages } from '../../protocol/messages.js';
import type { Route, Surface } from '../../surface/compileSurface.js';

/**
 * The refusal of a grouped call whose arguments name no action of `route` (its {@link resolveCall} found no
 * `action`): the message lists the actions of `visible`, the caller's view of the route.
 */
export function unknownAction(
  route: Route & { kind: 'grouped' },
  args: Record<string, unknown> | undefined,
  visible: Route | undefined,
): ToolResponse {
  const key = args?.[route.discriminator];
  const keys = visible?.kind === 'grouped' ? [...visible.actions.keys()] : [];
  return errorResult(messages.unknownAction(route.exposed, route.discriminator, key, keys));
}

/**
 * What a sealed `requestState` of a `tools/call` is bound to: the called name and, for a grouped tool, the
 * action, so that a state minted by one action (`ask`) cannot be presented to another (`confirm_delete`).
 */
export function sealTargetOf(
  route: Route | undefined,
  name: string,
  args: Record<string, unknown> | undefined,
): string {
  if (route?.kind !== 'grouped') return `tools/call:${name}`;
  const key = args?.[route.discriminator];
  return `tools/call:${name}#${typeof key === 'string' ? key : ''}`;
}

/** The action key of `tool` in a grouped route (its own name in a flat one). */
export function actionKey(route: Route, tool: FusionTool<any>): string {
  if (route.kind === 'grouped') for (const [key, t] of route.actions) if (t === tool) return key;
  return tool.name;
}

/**
 * The route a `tools/call` of one name addresses, and, when the arguments pick one, the tool it runs (a flat
 * route's tool, a grouped route's action) with the arguments left for it. `route` is undefined for an unknown
 * name; `action` for an unknown action (the runtime then refuses with the caller's visible actions).
 */
export interface ResolvedCall {
  readonly name: string;
  readonly route: Route | undefined;
  readonly action?: { readonly tool: FusionTool; readonly rest: Record<string, unknown> } | undefined;
}

/**
 * Resolves a `tools/call` of `name` with `args` against `surface`: the one resolution of a call, made once
 * and handed on (by the HTTP front through `frontNotes`, else by the `tools/call` method to the runtime).
 */
export function resolveCall(
  surface: Pick<Surface, 'routes'>,
  name: string,
  args: Record<string, unknown> | undefined,
): ResolvedCall {
  const route = surface.routes.get(name);
  if (route === undefined) return { name, route };
  const given = args ?? {};
  if (route.kind === 'flat') return { name, route, action: { tool: route.tool, rest: given } };
  const { [route.discriminator]: key, ...rest } = given;
  const tool = typeof key === 'string' ? route.actions.get(key) : undefined;
  return { name, route, action: tool === undefined ? undefined : { tool, rest } };
}
