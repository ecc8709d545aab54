import { groupedToolDefinition } from '../builder/grouped/groupedToolDefinition.js';
import { groupSpecOf } from '../builder/grouped/groupSpecs.js';
import type { GroupedToolSpec } from '../builder/grouped/types.js';
import type { ActionSpec } from '../builder/strategies/types.js';
import type { FusionTool } from '../protocol/types.js';
import { DefinitionError } from '../errors/FusionError.js';
import { wireTool, type GroupedRoute, type Route, type WireTool } from './compileSurface.js';

const DEFAULT_DISCRIMINATOR = 'action';

interface Bucket {
  readonly name: string;
  readonly discriminator: string;
  readonly fromBuilder: boolean;
  readonly members: Array<{ readonly key: string; readonly tool: FusionTool }>;
}

/** Which tools {@link groupTools} merges: grouped builders only (`builder`), or also fluent tools sharing a prefix (`grouped`). */
export type GroupingMode = 'builder' | 'grouped';

/**
 * Grouped routes for `compileSurface`. Actions of a grouped builder become one tool (named after the
 * builder) with its discriminator, in both modes. In `grouped` mode, fluent tools sharing a dotted prefix
 * (`projects.list`, `projects.create`) also become one tool named after the prefix with the discriminator
 * `action` (keys `list`, `create`); a prefix with a single tool, a prefix that is also a tool's name, a
 * name without a dot, or a prefix whose tools already take an `action` field stays flat. In `builder`
 * mode (the default exposition) every fluent tool stays flat. Routes come in order of first appearance.
 * @see docs/grouped-tools.md
 */
export function groupTools(
  tools: readonly FusionTool[],
  render: (name: string) => string,
  mode: GroupingMode = 'grouped',
): { wire: WireTool[]; routes: Route[] } {
  const buckets = new Map<string, Bucket>();
  const bucketOf: Array<Bucket | undefined> = tools.map((tool) => {
    const id =
      tool.group !== undefined
        ? `tool:${tool.group.tool}`
        : mode === 'builder' || prefixOf(tool.name) === undefined
          ? undefined
          : `prefix:${prefixOf(tool.name)}`;
    if (id === undefined) return undefined;
    let bucket = buckets.get(id);
    if (bucket === undefined) {
      bucket =
        tool.group !== undefined
          ? { name: tool.group.tool, discriminator: tool.group.discriminator, fromBuilder: true, members: [] }
          : { name: prefixOf(tool.name)!, discriminator: DEFAULT_DISCRIMINATOR, fromBuilder: false, members: [] };
      buckets.set(id, bucket);
    }
    bucket.members.push({ key: tool.group?.key ?? tool.name.slice(bucket.name.length + 1), tool });
    return bucket;
  });
  const taken = new Set<string>();
  for (const tool of tools) taken.add(tool.group?.tool ?? tool.name);
  const wire: WireTool[] = [];
  const routes: Route[] = [];
  const emitted = new Set<Bucket>();
  tools.forEach((tool, i) => {
    const bucket = bucketOf[i];
    if (bucket !== undefined && staysGrouped(bucket, taken)) {
      if (emitted.has(bucket)) return;
      emitted.add(bucket);
      const exposed = render(bucket.name);
      wire.push(groupedToolDefinition(specOf(bucket), exposed));
      routes.push({
        kind: 'grouped',
        exposed,
        discriminator: bucket.discriminator,
        actions: new Map(bucket.members.map((m) => [m.key, m.tool])),
      });
      return;
    }
    const exposed = render(tool.name);
    wire.push(wireTool(tool, exposed));
    routes.push({ kind: 'flat', exposed, tool });
  });
  return { wire, routes };
}

/** The wire definition of a grouped route as it stands (e.g. narrowed to the actions a principal may call). */
export function groupedWire(route: GroupedRoute): WireTool {
  const members = [...route.actions].map(([key, tool]) => ({ key, tool }));
  const first = members[0]!.tool;
  const fromBuilder = first.group !== undefined;
  const bucket: Bucket = {
    name: fromBuilder ? first.group!.tool : prefixOf(first.name)!,
    discriminator: route.discriminator,
    fromBuilder,
    members,
  };
  return groupedToolDefinition(specOf(bucket), route.exposed);
}

function prefixOf(name: string): string | undefined {
  const dot = name.indexOf('.');
  return dot > 0 && dot < name.length - 1 ? name.slice(0, dot) : undefined;
}

function staysGrouped(bucket: Bucket, taken: ReadonlySet<string>): boolean {
  if (bucket.fromBuilder) return true;
  return (
    bucket.members.length > 1 &&
    !taken.has(bucket.name) &&
    bucket.members.every((m) => !Object.hasOwn(m.tool.inputSchema.properties ?? {}, bucket.discriminator))
  );
}

function specOf(bucket: Bucket): GroupedToolSpec {
  if (bucket.fromBuilder) {
    const spec = groupSpecOf(bucket.members[0]!.tool);
    const sameBuilder = bucket.members.every(
      (m) => groupSpecOf(m.tool) === spec && m.tool.group!.discriminator === bucket.discriminator,
    );
    if (!sameBuilder) {
      throw new DefinitionError(
        'TOOL_DUPLICATE',
        `Two grouped tools are named "${bucket.name}" (actions ${bucket.members.map((m) => m.key).join(', ')}); rename one of them.`,
        { name: bucket.name },
      );
    }
    if (spec !== undefined) {
      const present = new Set(bucket.members.map((m) => m.key));
      return present.size === spec.actions.length
        ? spec
        : { ...spec, actions: spec.actions.filter((a) => present.has(a.key)) };
    }
  }
  return specFromTools(bucket);
}

/** The strategies' view of tools that were not built by a grouped builder (fluent tools sharing a prefix). */
function specFromTools(bucket: Bucket): GroupedToolSpec {
  const defs: Record<string, unknown> = {};
  const actions = bucket.members.map(({ key, tool }): ActionSpec => {
    const found = tool.inputSchema.$defs;
    if (typeof found === 'object' && found !== null)
      for (const [k, v] of Object.entries(found)) if (!(k in defs)) defs[k] = v;
    const { readOnlyHint, destructiveHint, idempotentHint } = tool.annotations;
    return {
      key,
      name: key,
      group: undefined,
      description: tool.description,
      properties: tool.inputSchema.properties ?? {},
      required: tool.inputSchema.required ?? [],
      readOnly: readOnlyHint === true,
      // MCP reads a missing destructiveHint on a non-read-only tool as destructive.
      destructive: readOnlyHint !== true && destructiveHint !== false,
      idempotent: idempotentHint === true,
    };
  });
  return {
    name: bucket.name,
    description: undefined,
    discriminator: bucket.discriminator,
    common: undefined,
    defs: Object.keys(defs).length > 0 ? defs : undefined,
    groups: [],
    actions,
    perActionSchemas: false,
    toon: undefined,
  };
}

/** The `group` strategy of `compileSurface` for a `toolExposition` value (`flat`: none). */
export function groupingFor(
  exposition: 'builder' | 'flat' | 'grouped' | undefined,
):
  | ((tools: readonly FusionTool[], render: (name: string) => string) => { wire: WireTool[]; routes: Route[] })
  | undefined {
  if (exposition === 'flat') return undefined;
  const mode: GroupingMode = exposition === 'grouped' ? 'grouped' : 'builder';
  return (tools, render) => groupTools(tools, render, mode);
}
