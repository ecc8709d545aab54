import { Server } from '@modelcontextprotocol/server';
import type { ProtocolEra } from '../builder/types.js';
import { attachPipeline, type Attachment } from '../pipeline/attach.js';
import type { RequestPipeline } from '../pipeline/RequestPipeline.js';
import type { ServeOptions } from './types.js';

/** A fresh low-level v2 `Server` over a prebuilt pipeline: construction plus two handler installs. */
export function buildServer<Ctx>(
  pipeline: RequestPipeline<Ctx>,
  options: ServeOptions<Ctx>,
  era?: ProtocolEra,
): { server: Server; attachment: Attachment } {
  const server = new Server(
    { name: options.name ?? 'mcp-fusion-server', version: options.version ?? '1.0.0' },
    {
      capabilities: { tools: { listChanged: true } },
      ...(options.instructions !== undefined ? { instructions: options.instructions } : {}),
    },
  );
  const attachment = attachPipeline(server, pipeline, era);
  return { server, attachment };
}
