import { McpServer, Server } from '@modelcontextprotocol/server';
import type { ProtocolEra } from '../protocol/types.js';
import { AttachError } from '../errors/FusionError.js';
import { attachOwn, attachRuntime, type Attachment } from '../adapter/attach.js';
import { FusionServer } from '../adapter/FusionServer.js';
import { capabilitiesFor } from '../adapter/capabilitiesFor.js';
import type { FusionRuntime } from '../runtime/FusionRuntime.js';
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
 * The server of one session, request or connection over a prebuilt runtime: the user's own (the
 * `server` option: its `registerTool()` entries stay beside the registry's), or a fresh low-level v2
 * `Server` constructed with exactly the capabilities the registry needs; then the handler installs.
 */
export function buildServer<Ctx>(
  runtime: FusionRuntime<Ctx>,
  options: ServeOptions<Ctx>,
  era?: ProtocolEra,
): BuiltServer {
  if (options.server === undefined) {
    const server = ownServer(runtime, options);
    return { server, instance: server, attachment: attachOwn(server, runtime, era) };
  }
  const instance = userServer(options.server, era);
  const attachment = attachRuntime(instance, runtime, era);
  return { server: instance instanceof McpServer ? instance.server : instance, instance, attachment };
}

/**
 * A fresh low-level v2 server of mcp-fusion's own, constructed with exactly the capabilities the registry
 * needs; `supportedProtocolVersions` as the SDK's `ServerOptions` take them (the modern dispatcher adds the
 * 2026-07-28 revision).
 */
export function ownServer<Ctx>(
  runtime: FusionRuntime<Ctx>,
  options: ServeOptions<Ctx>,
  supportedProtocolVersions?: string[],
): FusionServer {
  return new FusionServer(
    { name: options.name ?? 'mcp-fusion-server', version: options.version ?? '1.0.0' },
    {
      capabilities: { ...capabilitiesFor(runtime) },
      ...(options.instructions !== undefined ? { instructions: options.instructions } : {}),
      ...(supportedProtocolVersions !== undefined ? { supportedProtocolVersions } : {}),
    },
  );
}

/** Servers a `server` option returned already: each session, request and connection needs its own. */
const served = new WeakSet<object>();

function userServer(
  factory: NonNullable<ServeOptions<unknown>['server']>,
  era: ProtocolEra | undefined,
): McpServer | Server {
  const made: unknown = factory({ era });
  if (!(made instanceof McpServer) && !(made instanceof Server)) {
    throw new AttachError(
      'ATTACH_SERVER',
      'The server option must return a new McpServer or Server of @modelcontextprotocol/server (v2) on every call; it returned something else. A v1 server can only be attached with registry.attachToServer(server).',
    );
  }
  if (served.has(made)) {
    throw new AttachError(
      'ATTACH_SERVER',
      'The server option returned a server it had returned before; build a new McpServer or Server inside the function on every call (each legacy session, modern request and stdio connection needs its own).',
    );
  }
  served.add(made);
  return made;
}
