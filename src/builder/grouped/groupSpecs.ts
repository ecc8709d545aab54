import type { FusionTool } from '../../protocol/types.js';
import type { GroupedToolSpec } from './types.js';

const specs = new WeakMap<FusionTool, GroupedToolSpec>();

/** Remembers which grouped tool an action's built tool came from, for grouped exposition. */
export function recordGroupSpec(tools: readonly FusionTool[], spec: GroupedToolSpec): void {
  for (const tool of tools) specs.set(tool, spec);
}

/** The spec of the grouped builder that built `tool`, if any. */
export function groupSpecOf(tool: FusionTool): GroupedToolSpec | undefined {
  return specs.get(tool);
}
