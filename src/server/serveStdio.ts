import { serveStdio as sdkServeStdio } from '@modelcontextprotocol/server/stdio';
import type { ToolRegistry } from '../registry/ToolRegistry.js';
import { buildServer } from './buildServer.js';
import { StdioLineTransport } from './StdioLineTransport.js';
import type { ServeOptions } from './types.js';
import { interceptServe } from '../_internal/interceptServe.js';

/** A running stdio server. */
export interface StdioHandle {
  close(): Promise<void>;
}

/**
 * Serves a registry over stdio, both eras: the SDK pins one server per connection (legacy clients
 * get the seeds' per-connection workflow state; modern clients the per-request surface). A line over
 * `stdioMaxLineBytes` (10 MiB) is answered with a JSON-RPC error and skipped; the connection goes on.
 */
export function serveStdio<Ctx>(registry: ToolRegistry<Ctx>, options: ServeOptions<Ctx> = {}): StdioHandle {
  interceptServe('serveStdio', registry, options);
  const runtime = registry.runtime(options);
  // An oversized line is answered and skipped instead of ending the connection (see StdioLineTransport).
  const transport = new StdioLineTransport(options.stdioMaxLineBytes === undefined ? {} : { maxLineBytes: options.stdioMaxLineBytes });
  const handle = sdkServeStdio((ctx) => buildServer(runtime, options, ctx.era).instance, { transport });
  return {
    async close() {
      await handle.close();
      runtime.dispose();
    },
  };
}
