import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LegacySessions } from '../legacy/LegacySessions.js';

/** A fetch-shaped MCP endpoint serving both protocol eras. */
export interface FusionApp {
  /**
   * Serves one request. `authInfo`: the verified token of the caller, if any (pass-through, as the SDK's
   * handlers take it). `peer`: the remote address of the connection (`startServer` passes the socket's);
   * anonymous modern callers are keyed by it, and anonymous legacy openers are budgeted by it. Without a
   * peer, anonymous modern callers share one key.
   */
  fetch(request: Request, options?: FusionFetchOptions): Promise<Response>;
  /**
   * The app as a `node:http` handler, for `http.createServer`, Express or Fastify: the adapter `startServer`
   * uses (the body read once, straight from the socket; a complete answer written in one piece). A body an
   * earlier middleware already parsed is taken as it is: `parsedBody` (Fastify's `request.body`), else
   * `req.body` once the request stream has been read (`express.json()`); a function in its place (Express'
   * `next`) is ignored, as the SDK's `toNodeHandler` does. `req.auth` is passed on as `authInfo`, the socket's
   * address as `peer`.
   * @see docs/deployment.md
   */
  readonly node: (req: IncomingMessage, res: ServerResponse, parsedBody?: unknown) => void;
  /** Live legacy sessions (servers in memory). */
  readonly sessions: LegacySessions;
  /**
   * Announces that the resource at `uri` changed: `notifications/resources/updated` to the legacy sessions
   * subscribed to it (`resourceSubscriptions` option) and to the modern `subscriptions/listen` streams that
   * named it — nobody else.
   */
  notifyResourceUpdated(uri: string): Promise<void>;
  /** The resource at `uri` is gone: its subscribers hear it once more, and their subscriptions end. */
  notifyResourceDeleted(uri: string): Promise<void>;
  /**
   * The prompt list changed (prompts of your own `server`, or computed outside the registry):
   * `notifications/prompts/list_changed` to the legacy sessions live here and to modern listen streams that asked.
   */
  notifyPromptsChanged(): void;
  /** Where the dev console is served and its token, when the `devConsole` option is on. */
  readonly devConsole?: { readonly path: string; readonly token: string };
  /**
   * Stops accepting requests (503), drains running calls up to `drainMs` (the option, or this call's), waits
   * until their answers are written (up to the same deadline), then closes every session.
   */
  close(options?: { drainMs?: number }): Promise<void>;
}

/** What a host passes with a request to {@link FusionApp.fetch}. */
export interface FusionFetchOptions {
  /** The verified token of the caller, if the host checked one (as the SDK's handlers take it). */
  authInfo?: unknown;
  /** The remote address of the connection: anonymous modern callers are keyed by it, anonymous legacy openers budgeted. */
  peer?: string;
  /** The JSON body, when the host already parsed it (the request's own body is then not read). */
  parsedBody?: unknown;
}
