import { Server } from '@modelcontextprotocol/server';
import type { ProtocolEra } from '../builder/types.js';
import { attachPipeline, type Attachment } from '../pipeline/attach.js';
import { capabilitiesFor } from '../pipeline/capabilitiesFor.js';
import type { FusionRuntime } from '../pipeline/FusionRuntime.js';
import type { ServeOptions } from './types.js';

/**
 * A fresh low-level v2 `Server` over a prebuilt runtime: construction with exactly the capabilities
 * the registry needs (tools, plus prompts and resources when it has them), then the handler installs.
 */
export function buildServer<Ctx>(
  runtime: FusionRuntime<Ctx>,
  options: ServeOptions<Ctx>,
  era?: ProtocolEra,
): { server: Server; attachment: Attachment } {
  const server = new Server(
    { name: options.name ?? 'mcp-fusion-server', version: options.version ?? '1.0.0' },
    {
      capabilities: { ...capabilitiesFor(runtime) },
      ...(options.instructions !== undefined ? { instructions: options.instructions } : {}),
    },
  );
  const attachment = attachPipeline(server, runtime, era);
  return { server, attachment };
}
