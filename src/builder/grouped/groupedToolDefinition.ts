import type { WireTool } from '../../domain/types.js';
import { deepFreeze } from '../buildFusionTool.js';
import { aggregateAnnotations } from '../strategies/aggregateAnnotations.js';
import { generateDescription } from '../strategies/generateDescription.js';
import { generateSchema } from '../strategies/generateSchema.js';
import { generateToonDescription } from '../strategies/generateToonDescription.js';
import type { GroupedToolSpec } from './types.js';

/** Key of the per-action hints in a grouped tool's `_meta`. */
export const ACTIONS_META_KEY = 'fusion/actions';

/**
 * The MCP definition of a grouped tool, composed from the strategies: description (plain or TOON),
 * input schema (annotated union or per-action `oneOf`), aggregated annotations, and per-action hints
 * in `_meta['fusion/actions']`. Pure; the result is frozen.
 */
export function groupedToolDefinition(spec: GroupedToolSpec, exposed: string = spec.name): WireTool {
  const described = { description: spec.description, actions: spec.actions, groups: spec.groups };
  const actions: Record<string, { readOnly: boolean; destructive: boolean; idempotent: boolean }> = {};
  for (const a of spec.actions)
    actions[a.key] = { readOnly: a.readOnly, destructive: a.destructive, idempotent: a.idempotent };
  return deepFreeze({
    name: exposed,
    description:
      spec.toon === undefined ? generateDescription(described) : generateToonDescription(described, spec.toon),
    inputSchema: generateSchema({
      actions: spec.actions,
      discriminator: spec.discriminator,
      common: spec.common,
      defs: spec.defs,
      perAction: spec.perActionSchemas,
    }),
    annotations: aggregateAnnotations(spec.actions) as Record<string, unknown>,
    _meta: { [ACTIONS_META_KEY]: actions },
  });
}
