import { McpServer, Server } from '@modelcontextprotocol/server';
import type { ProtocolEra } from '../builder/types.js';
import { AttachError } from '../errors/FusionError.js';
import { attachPipeline, type Attachment } from '../pipeline/attach.js';
import { capabilitiesFor } from '../pipeline/capabilitiesFor.js';
import type { RequestPipeline } from '../pipeline/RequestPipeline.js';
import type { ServeOptions } from './types.js';

/** A server built for one legacy session, one modern request or one stdio connection. */
export interface BuiltServer {
  /** The low-level server (the user's `McpServer`'s `.server`, or the one mcp-fusion made). */
  server: Server;
  /** What the SDK's serving helpers get: the user's `McpServer` or `Server` as given, or `server`. */
  instance: McpServer | Server;
  attachment: Attachment;
}

/**
 * The server of one session, request or connection over a prebuilt pipeline: the user's own (the
 * `server` option: its `registerTool()` entries stay beside the registry's), or a fresh low-level v2
 * `Server` constructed with exactly the capabilities the registry needs; then the handler installs.
 */
export function buildServer<Ctx>(pipeline: RequestPipeline<Ctx>, options: ServeOptions<Ctx>, era?: ProtocolEra): BuiltServer {
  const instance = options.server === undefined ? defaultServer(pipeline, options) : userServer(options.server, era);
  const attachment = attachPipeline(instance, pipeline, era);
  return { server: instance instanceof McpServer ? instance.server : instance, instance, attachment };
}

function defaultServer<Ctx>(pipeline: RequestPipeline<Ctx>, options: ServeOptions<Ctx>): Server {
  return new Server(
    { name: options.name ?? 'mcp-fusion-server', version: options.version ?? '1.0.0' },
    {
      capabilities: { ...capabilitiesFor(pipeline) },
      ...(options.instructions !== undefined ? { instructions: options.instructions } : {}),
    },
  );
}

/** Servers a `server` option returned already: each session, request and connection needs its own. */
const served = new WeakSet<object>();

function userServer(factory: NonNullable<ServeOptions<unknown>['server']>, era: ProtocolEra | undefined): McpServer | Server {
  const made: unknown = factory({ era });
  if (!(made instanceof McpServer) && !(made instanceof Server)) {
    throw new AttachError(
      'ATTACH_SERVER',
      'The server option must return a new McpServer or Server of @modelcontextprotocol/server (v2) on every call; it returned something else. A v1 server can only be attached with registry.attachToServer(server).',
    );
  }
  if (served.has(made)) {
    throw new AttachError('ATTACH_SERVER', 'The server option returned a server it had returned before; build a new McpServer or Server inside the function on every call (each legacy session, modern request and stdio connection needs its own).');
  }
  served.add(made);
  return made;
}
