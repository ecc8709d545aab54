import type { FusionTool } from '../protocol/types.js';
import type { WireTool } from '../domain/types.js';
import { DefinitionError } from '../errors/FusionError.js';
import type { NameStyle, ToolFilter } from './types.js';
import type { TaskDeclaration } from '../tasks/types.js';

export type { WireTool };

/** A flat route: one exposed name, one tool. */
export interface FlatRoute {
  readonly kind: 'flat';
  readonly exposed: string;
  readonly tool: FusionTool;
}

/** A grouped route: one exposed name, a discriminator field selecting the action. */
export interface GroupedRoute {
  readonly kind: 'grouped';
  readonly exposed: string;
  readonly discriminator: string;
  readonly actions: ReadonlyMap<string, FusionTool>;
}

export type Route = FlatRoute | GroupedRoute;

/** The frozen tool surface of one registry under one set of options. */
export interface Surface {
  /** Wire definitions in registration order, before decoration. */
  readonly wire: readonly WireTool[];
  /** Exposed name → route; `tools/call` is one `Map.get`. */
  readonly routes: ReadonlyMap<string, Route>;
  /** Canonical tools that passed the filter, in registration order. */
  readonly tools: readonly FusionTool[];
  /** Canonical name → exposed name (for messages that name other tools). */
  readonly exposedName: ReadonlyMap<string, string>;
}

/** Options that shape a surface. */
export interface SurfaceOptions {
  readonly filter?: ToolFilter | undefined;
  readonly nameStyle?: NameStyle | undefined;
  /** Builds grouped routes and their wire tools; provided by the grouped-exposition strategy. */
  readonly group?:
    | ((
        tools: readonly FusionTool[],
        render: (name: string) => string,
      ) => { wire: WireTool[]; routes: Route[] } | undefined)
    | undefined;
}

/** Pure build step: filter tools, render names, derive wire definitions and routes. */
export function compileSurface(all: readonly FusionTool[], options: SurfaceOptions = {}): Surface {
  const tools = all.filter((t) => passesFilter(t, options.filter));
  const render = renderer(options.nameStyle);
  const exposedName = new Map<string, string>();
  const routes = new Map<string, Route>();
  const wire: WireTool[] = [];
  const grouped = options.group?.(tools, render);
  const addRoute = (route: Route, definition: WireTool): void => {
    const clash = routes.get(route.exposed);
    if (clash !== undefined) {
      throw new DefinitionError(
        'TOOL_DUPLICATE',
        `Two tools are exposed as "${route.exposed}"; rename one of them or choose another nameStyle.`,
        { name: route.exposed },
      );
    }
    routes.set(route.exposed, route);
    const task = routeTask(route);
    // 2025-11-25 `execution.taskSupport`; the 2026-07-28 codec drops the field from its lists.
    wire.push(task === undefined ? definition : { ...definition, execution: { taskSupport: task.mode } });
  };
  if (grouped !== undefined) {
    grouped.routes.forEach((route, i) => addRoute(route, grouped.wire[i]!));
    for (const route of grouped.routes) {
      if (route.kind === 'grouped') for (const t of route.actions.values()) exposedName.set(t.name, route.exposed);
      else exposedName.set(route.tool.name, route.exposed);
    }
  } else {
    for (const tool of tools) {
      const exposed = render(tool.name);
      exposedName.set(tool.name, exposed);
      addRoute({ kind: 'flat', exposed, tool }, wireTool(tool, exposed));
    }
  }
  return Object.freeze({ wire: Object.freeze(wire), routes, tools: Object.freeze(tools), exposedName });
}

/** The task declaration of a route: its tool's, or for a grouped route the first action's (a grouped builder sets all alike). */
export function routeTask(route: Route): TaskDeclaration | undefined {
  if (route.kind === 'flat') return route.tool.task;
  for (const tool of route.actions.values()) if (tool.task !== undefined) return tool.task;
  return undefined;
}

/** The wire definition of one flat tool. */
export function wireTool(tool: FusionTool, exposed: string): WireTool {
  const def: WireTool = { name: exposed, inputSchema: tool.inputSchema as Record<string, unknown> };
  if (tool.title !== undefined) def.title = tool.title;
  if (tool.description !== undefined) def.description = tool.description;
  if (tool.outputSchema !== undefined) def.outputSchema = tool.outputSchema as Record<string, unknown>;
  if (Object.keys(tool.annotations).length > 0) def.annotations = tool.annotations as Record<string, unknown>;
  if (tool.meta !== undefined) def._meta = tool.meta as Record<string, unknown>;
  return def;
}

function passesFilter(tool: FusionTool, filter: ToolFilter | undefined): boolean {
  if (filter === undefined) return true;
  if (filter.tags !== undefined && !filter.tags.every((t) => tool.tags.includes(t))) return false;
  if (filter.exclude !== undefined && filter.exclude.some((t) => tool.tags.includes(t))) return false;
  return true;
}

/** The wire-name renderer for a name style. */
export function renderer(style: NameStyle | undefined): (name: string) => string {
  if (style === undefined || style === 'dots') return (n) => n;
  if (style === 'underscores') return (n) => n.replaceAll('.', '_');
  return style;
}
