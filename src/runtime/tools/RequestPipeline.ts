import { ToolRuntime } from './ToolRuntime.js';

/** @deprecated use {@link ToolRuntime} (`runtime.tools`). */
export const RequestPipeline = ToolRuntime;
/** @deprecated use {@link ToolRuntime} (`runtime.tools`). */
export type RequestPipeline<Ctx = any> = ToolRuntime<Ctx>;
