import type { FusionTool } from '../protocol/types.js';
import type { Route, Surface, WireTool } from './compileSurface.js';
import { groupedWire } from './groupedExposition.js';

/**
 * The part of a surface a principal may use: flat tools it is `allowed`, grouped tools with only the actions
 * it is allowed (their discriminator enum and description re-rendered for those), and no grouped tool left
 * empty. Exposed names do not change, so a call routes the same whatever the view. Pure; build-time work
 * cached per distinct scope set.
 */
export function narrowSurface(surface: Surface, allowed: (tool: FusionTool) => boolean): Surface {
  const routes = new Map<string, Route>();
  const wireOf = new Map<string, WireTool>();
  const original = new Map(surface.wire.map((w) => [w.name, w]));
  for (const [exposed, route] of surface.routes) {
    if (route.kind === 'flat') {
      if (allowed(route.tool)) routes.set(exposed, route);
      continue;
    }
    const actions = new Map([...route.actions].filter(([, tool]) => allowed(tool)));
    if (actions.size === 0) continue;
    if (actions.size === route.actions.size) {
      routes.set(exposed, route);
      continue;
    }
    const narrowed = { ...route, actions };
    routes.set(exposed, narrowed);
    wireOf.set(exposed, groupedWire(narrowed));
  }
  const wire = surface.wire.filter((w) => routes.has(w.name)).map((w) => wireOf.get(w.name) ?? original.get(w.name)!);
  return Object.freeze({
    wire: Object.freeze(wire),
    routes,
    tools: Object.freeze(surface.tools.filter(allowed)),
    exposedName: surface.exposedName,
  });
}
