import type { FusionTool } from '../protocol/types.js';

export type { NameStyle, ToolFilter } from '../surface/types.js';
export type { AttachOptions } from '../runtime/core/options.js';
export type { DebugEvent } from '../tracing/types.js';

/** Anything that contributes tools to a registry: a built tool, or a builder of several (grouped tools). */
export type ToolSource<Ctx = any> = FusionTool<Ctx> | { toFusionTools(): readonly FusionTool<Ctx>[] };
