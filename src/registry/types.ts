import type { FusionTool } from '../builder/types.js';

export type { NameStyle, ToolFilter } from '../pipeline/types.js';
export type { AttachOptions, DebugEvent } from '../pipeline/options.js';

/** Anything that contributes tools to a registry: a built tool, or a builder of several (grouped tools). */
export type ToolSource<Ctx = any> = FusionTool<Ctx> | { toFusionTools(): readonly FusionTool<Ctx>[] };
