import { AttachError } from '../errors/FusionError.js';
import { isMcpServer, hasHandlerTable } from './sdkHandlers.js';
import type { WiredServer } from './wireRuntime.js';

/** The part of a user's SDK server mcp-fusion composes with (v2 `Server`, or v1 `Server`). */
export interface ServerLike extends WiredServer {
  registerCapabilities?(capabilities: Record<string, unknown>): void;
  onclose?: (() => void) | undefined;
  removeRequestHandler?(method: string): void;
}

/** A user's server as {@link resolveServer} told it: its SDK line, its low-level server, its `McpServer`. */
export interface ResolvedServer {
  readonly low: ServerLike;
  readonly sdk: 'v1' | 'v2';
  /** The high-level `McpServer` when one was given (its own entries are composed with), else `undefined`. */
  readonly mcp: object | undefined;
}

/** The server classes of the `@modelcontextprotocol/server` mcp-fusion loads (sdkClasses.ts hands them in). */
export interface SdkServerClasses {
  readonly McpServer: abstract new (...args: never[]) => object;
  readonly Server: abstract new (...args: never[]) => object;
}

let v2: SdkServerClasses | undefined;

/**
 * Hands in the v2 SDK's classes. This folder is reached from the registry, which must not load the SDK at run
 * time (test/package/importGraph.test.ts), so the module that does load it (sdkClasses.ts, imported by the
 * root entry) gives them here.
 */
export function provideSdkClasses(classes: SdkServerClasses): void {
  v2 = classes;
}

const SUPPORTED = 'an McpServer or Server of @modelcontextprotocol/server (v2), or of @modelcontextprotocol/sdk (v1)';

/**
 * Tells a user's server apart by type: an `McpServer` or `Server` of the v2 SDK mcp-fusion loads
 * (`instanceof`); otherwise a v1 SDK server, told by its shape (the v1 SDK is an optional peer mcp-fusion
 * never loads, so it has no class to compare with). A v2 look-alike (a wrapper, or a server of a second copy
 * of the SDK) is refused rather than composed with through internals that may not be there.
 */
export function resolveServer(server: unknown): ResolvedServer {
  if (v2 === undefined) {
    throw new AttachError(
      'ATTACH_SDK',
      "attachToServer() cannot tell SDK servers apart: mcp-fusion's SDK classes were not loaded. Import mcp-fusion from its package entry ('mcp-fusion'), not from a file inside it.",
    );
  }
  if (server instanceof v2.McpServer) return { low: (server as { server: ServerLike }).server, sdk: 'v2', mcp: server };
  if (server instanceof v2.Server) return { low: server as ServerLike, sdk: 'v2', mcp: undefined };
  const low = isMcpServer(server) ? server.server : server;
  if (looksLikeV2(low)) {
    throw new AttachError(
      'ATTACH_SERVER',
      `attachToServer() got a server that looks like the v2 SDK's but is not an McpServer or Server of the @modelcontextprotocol/server mcp-fusion loads (a wrapper, a look-alike, or a second copy of the SDK: check \`npm ls @modelcontextprotocol/server\`). Pass the McpServer or Server instance itself.`,
    );
  }
  if (hasHandlerTable(low))
    return { low: low as ServerLike, sdk: 'v1', mcp: low === server ? undefined : (server as object) };
  throw new AttachError(
    'ATTACH_SERVER',
    `attachToServer() needs an MCP SDK server: ${SUPPORTED}. The value given is neither (a v1 server has setRequestHandler() and its handler table).`,
  );
}

function looksLikeV2(low: unknown): boolean {
  return typeof (low as { projectCallToolResult?: unknown } | null)?.projectCallToolResult === 'function';
}
