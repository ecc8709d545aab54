import { serveStdio as sdkServeStdio } from '@modelcontextprotocol/server/stdio';
import type { ToolRegistry } from '../../registry/ToolRegistry.js';
import { buildServer } from '../buildServer.js';
import { StdioLineTransport } from './StdioLineTransport.js';
import type { ServeOptions } from '../types.js';
import type { Attachment } from '../../adapter/attach.js';
import { interceptServe } from '../../_internal/interceptServe.js';

/** A running stdio server. */
export interface StdioHandle {
  /** The resource at `uri` changed: the client hears `notifications/resources/updated` if it subscribed. */
  notifyResourceUpdated(uri: string): Promise<void>;
  /** The resource at `uri` is gone: a subscribed client hears it once more, its subscription ends, and the list changed. */
  notifyResourceDeleted(uri: string): Promise<void>;
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
  const transport = new StdioLineTransport(
    options.stdioMaxLineBytes === undefined ? {} : { maxLineBytes: options.stdioMaxLineBytes },
  );
  const attachments: Attachment[] = [];
  const handle = sdkServeStdio(
    (ctx) => {
      const built = buildServer(runtime, options, ctx.era);
      attachments.push(built.attachment);
      return built.instance;
    },
    { transport },
  );
  return {
    async notifyResourceUpdated(uri: string) {
      await Promise.all(attachments.map((a) => a.notifyResourceUpdated(uri)));
    },
    async notifyResourceDeleted(uri: string) {
      await Promise.all(attachments.map((a) => a.notifyResourceDeleted(uri)));
    },
    async close() {
      await handle.close();
      runtime.dispose();
    },
  };
}
