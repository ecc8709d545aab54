import type { FusionTool, ToolResponse } from '../protocol/types.js';
import { errorResult } from '../protocol/normalizeResult.js';
import { messages } from '../protocol/messages.js';
import type { Route } from '../surface/compileSurface.js';

/** The tool a call addresses; an unknown action's message lists the actions of `visible` (the caller's view of the route). */
export function pickAction(route: Route, args: Record<string, unknown> | undefined, visibleRoute: () => Route | undefined = () => route): { tool: FusionTool; rest: Record<string, unknown> } | { error: ToolResponse } {
  const given = args ?? {};
  if (route.kind === 'flat') return { tool: route.tool, rest: given };
  const { [route.discriminator]: key, ...rest } = given;
  const tool = typeof key === 'string' ? route.actions.get(key) : undefined;
  if (tool === undefined) {
    const visible = visibleRoute();
    return { error: errorResult(messages.unknownAction(route.exposed, route.discriminator, key, visible?.kind === 'grouped' ? [...visible.actions.keys()] : [])) };
  }
  return { tool, rest };
}
