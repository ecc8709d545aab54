import { z } from 'zod';
import { DefinitionError } from '../../errors/FusionError.js';
import type { WireTool } from '../../domain/types.js';
import { buildFusionTool, deepFreeze } from '../buildFusionTool.js';
import { zodToJsonSchema } from '../createValidator.js';
import { compileMiddleware } from '../strategies/compileMiddleware.js';
import type { ActionSpec, GroupSpec } from '../strategies/types.js';
import type { FusionTool, Middleware, ToolAnnotations, ToolKind } from '../../protocol/types.js';
import { groupedToolDefinition } from './groupedToolDefinition.js';
import { recordGroupSpec } from './groupSpecs.js';
import { loadToonEncode } from './loadToon.js';
import type { ActionDef, GroupedToolSpec, ToonOptions, ZodObjectSchema } from './types.js';
import type { TaskDeclaration } from '../../tasks/types.js';

/** The definition a grouped builder accumulates. */
export interface GroupedState<Ctx> {
  readonly name: string;
  readonly description: string | undefined;
  readonly discriminator: string;
  readonly common: ZodObjectSchema | undefined;
  readonly middlewares: readonly Middleware<Ctx>[];
  readonly tags: readonly string[];
  readonly toon: ToonOptions | undefined;
  readonly perActionSchemas: boolean;
  readonly groups: readonly GroupSpec[];
  readonly actions: readonly ActionDef<Ctx>[];
  readonly task: TaskDeclaration | undefined;
}

/** What building a grouped tool produces, once. */
export interface BuiltGroupedTool<Ctx> {
  readonly tools: readonly FusionTool<Ctx>[];
  readonly byKey: ReadonlyMap<string, FusionTool<Ctx>>;
  readonly spec: GroupedToolSpec;
  readonly definition: WireTool;
}

const NO_FIELDS = z.object({});

/**
 * The build step of a grouped tool: checks the definition, describes it for the strategies, compiles
 * one chain per action and builds one frozen {@link FusionTool} per action (`<tool>.<key>`).
 */
export function buildGroupedTool<Ctx>(state: GroupedState<Ctx>): BuiltGroupedTool<Ctx> {
  if (state.actions.length === 0) {
    throw new DefinitionError(
      'TOOL_ACTION',
      `Tool "${state.name}" has no actions; add one with .action({ name, handler }).`,
      { tool: state.name },
    );
  }
  const spec = describeGroupedTool(
    state,
    state.toon === undefined ? undefined : (state.toon.encode ?? loadToonEncode(state.name)),
  );
  const chains = compileMiddleware(state.actions, state.middlewares);
  const tools = state.actions.map((action) =>
    buildFusionTool<Ctx>({
      kind: kindOf(action),
      name: `${state.name}.${action.key}`,
      title: undefined,
      description: action.description,
      inputZod: mergedSchema(state, action),
      inputJson: undefined,
      outputZod: undefined,
      tags: state.tags,
      annotations: annotationsOf(action),
      meta: undefined,
      middlewares: [],
      sync: undefined,
      fsm: undefined,
      timeoutMs: undefined,
      presenter: undefined,
      group: { tool: state.name, key: action.key, discriminator: state.discriminator },
      requiredScopes: action.requiredScopes,
      rateLimit: action.rateLimit,
      task: state.task,
      handler: chains.get(action.key)!,
    }),
  );
  recordGroupSpec(tools, spec);
  return Object.freeze({
    tools: Object.freeze(tools),
    byKey: new Map(tools.map((t) => [t.group!.key, t])),
    spec,
    definition: groupedToolDefinition(spec),
  });
}

/** The strategies' view of a grouped tool (JSON Schemas derived once from the zod schemas). */
export function describeGroupedTool<Ctx>(state: GroupedState<Ctx>, toon: GroupedToolSpec['toon']): GroupedToolSpec {
  const defs: Record<string, unknown> = {};
  const common = state.common === undefined ? undefined : fieldsOf(state.common, state.name, defs);
  if (common !== undefined && state.discriminator in common.properties) {
    throw new DefinitionError(
      'TOOL_SCHEMA',
      `Tool "${state.name}" has a common field named like its discriminator "${state.discriminator}"; rename the field or choose another discriminator with .discriminator("op").`,
      { tool: state.name, field: state.discriminator },
    );
  }
  const actions = state.actions.map((action): ActionSpec => {
    const own = fieldsOf(action.schema ?? NO_FIELDS, `${state.name}.${action.key}`, defs);
    checkFields(state, action, Object.keys(own.properties), common === undefined ? [] : Object.keys(common.properties));
    const { key, name, group, description, readOnly, destructive, idempotent } = action;
    return {
      key,
      name,
      group,
      description,
      properties: own.properties,
      required: own.required,
      readOnly,
      destructive,
      idempotent,
    };
  });
  return deepFreeze({
    name: state.name,
    description: state.description,
    discriminator: state.discriminator,
    common,
    defs: Object.keys(defs).length > 0 ? defs : undefined,
    groups: state.groups,
    actions,
    perActionSchemas: state.perActionSchemas,
    toon,
  });
}

function fieldsOf(
  schema: ZodObjectSchema,
  owner: string,
  defs: Record<string, unknown>,
): { properties: Record<string, unknown>; required: string[] } {
  const json = zodToJsonSchema(schema, owner);
  const found = json.$defs;
  if (typeof found === 'object' && found !== null)
    for (const [k, v] of Object.entries(found)) if (!(k in defs)) defs[k] = v;
  return { properties: json.properties ?? {}, required: json.required ?? [] };
}

function checkFields<Ctx>(
  state: GroupedState<Ctx>,
  action: ActionDef<Ctx>,
  own: readonly string[],
  common: readonly string[],
): void {
  const data = { tool: state.name, action: action.key };
  if (own.includes(state.discriminator)) {
    throw new DefinitionError(
      'TOOL_SCHEMA',
      `Action "${action.key}" of tool "${state.name}" has a field named like the discriminator "${state.discriminator}"; rename the field or choose another discriminator with .discriminator("op").`,
      { ...data, field: state.discriminator },
    );
  }
  const clash = own.find((f) => common.includes(f));
  if (clash !== undefined) {
    throw new DefinitionError(
      'TOOL_SCHEMA',
      `Action "${action.key}" of tool "${state.name}" redeclares the common field "${clash}"; remove it from the action's schema (every handler already receives it).`,
      { ...data, field: clash },
    );
  }
}

function mergedSchema<Ctx>(state: GroupedState<Ctx>, action: ActionDef<Ctx>): z.ZodType {
  if (state.common === undefined) return action.schema ?? NO_FIELDS;
  if (action.schema === undefined) return state.common;
  try {
    return state.common.extend(action.schema.shape);
  } catch (error) {
    throw new DefinitionError(
      'TOOL_SCHEMA',
      `Action "${action.key}" of tool "${state.name}" cannot be merged with the common schema (${error instanceof Error ? error.message : String(error)}); use plain z.object({ … }) schemas without refinements.`,
      { tool: state.name, action: action.key },
    );
  }
}

function kindOf(action: Hints): ToolKind {
  if (action.readOnly) return 'query';
  return action.destructive ? 'mutation' : 'action';
}

function annotationsOf(action: Hints): ToolAnnotations {
  const base: ToolAnnotations = action.readOnly
    ? { readOnlyHint: true }
    : { readOnlyHint: false, destructiveHint: action.destructive };
  return action.idempotent ? { ...base, idempotentHint: true } : base;
}

type Hints = Pick<ActionDef<unknown>, 'readOnly' | 'destructive' | 'idempotent'>;
