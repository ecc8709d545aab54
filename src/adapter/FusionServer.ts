import { Server, type JSONRPCRequest, type Result, type ServerContext } from '@modelcontextprotocol/server';
import { OWN_SERVER } from './ownServer.js';

/** A request handler as the SDK's `Server` keeps it. */
export type ServerHandler = (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>;

/**
 * The server mcp-fusion builds for itself (a legacy session, a stdio connection, the modern dispatcher): the
 * SDK's low-level `Server`, plus a way to run code around the SDK's own `initialize` handler (the handshake's
 * span) through `_wrapHandler`, the hook the SDK documents for subclasses, so that nothing reads the server's
 * handler table. A user's own server ({@link attachRuntime}) is composed with instead.
 */
export class FusionServer extends Server {
  readonly [OWN_SERVER] = true;
  /** Wraps the SDK's `initialize` handler on every handshake (read at call time; set it before connecting). */
  aroundInitialize: ((handler: ServerHandler) => ServerHandler) | undefined;

  protected override _wrapHandler(method: string, handler: ServerHandler): ServerHandler {
    const wrapped = super._wrapHandler(method, handler);
    if (method !== 'initialize') return wrapped;
    return (request, ctx) =>
      this.aroundInitialize === undefined ? wrapped(request, ctx) : this.aroundInitialize(wrapped)(request, ctx);
  }
}
