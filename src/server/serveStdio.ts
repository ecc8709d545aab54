import { serveStdio as sdkServeStdio } from '@modelcontextprotocol/server/stdio';
import type { ToolRegistry } from '../registry/ToolRegistry.js';
import { buildServer } from './buildServer.js';
import type { ServeOptions } from './types.js';

/** A running stdio server. */
export interface StdioHandle {
  close(): Promise<void>;
}

/**
 * Serves a registry over stdio, both eras: the SDK pins one server per connection (legacy clients
 * get the seeds' per-connection workflow state; modern clients the per-request surface).
 */
export function serveStdio<Ctx>(registry: ToolRegistry<Ctx>, options: ServeOptions<Ctx> = {}): StdioHandle {
  const pipeline = registry.pipeline(options);
  const handle = sdkServeStdio((ctx) => buildServer(pipeline, options, ctx.era).instance);
  return {
    async close() {
      await handle.close();
      pipeline.dispose();
    },
  };
}
