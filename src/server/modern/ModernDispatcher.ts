import {
  SUPPORTED_PROTOCOL_VERSIONS,
  type AuthInfo,
  type McpHttpHandler,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { systemClock } from '../../_internal/clock.js';
import { attachOwn } from '../../adapter/attach.js';
import type { FusionServer } from '../../adapter/FusionServer.js';
import type { FusionRuntime } from '../../runtime/FusionRuntime.js';
import { admitModern, EnvelopeMemory, MODERN_REVISION, type Admitted } from '../http/classify.js';
import { ownServer } from '../buildServer.js';
import { SharedModernTransport } from './SharedModernTransport.js';
import type { ServeOptions } from '../types.js';

/**
 * The modern (2026-07-28) leg of the HTTP app: one server per runtime, built and attached once and connected
 * once to a {@link SharedModernTransport}, answers every ordinary request (nothing is constructed per
 * request but the exchange record). What it does not answer goes to the SDK's `createMcpHandler` (`sdk`),
 * which builds a server per request: `subscriptions/listen`, notifications, and every request the SDK's
 * entry would refuse before a handler runs (so those refusals stay the SDK's own, byte for byte). With a
 * user's `server` option, everything goes to `sdk`.
 *
 * Public SDK pieces used: `classifyInboundRequest` and the envelope key names (in {@link admitModern}),
 * `isJsonContentType`, `isJSONRPCRequest`, `SUPPORTED_PROTOCOL_VERSIONS`, `Server` (its `_wrapHandler`
 * subclass hook, in {@link FusionServer}) and `PerRequestHTTPServerTransport` (see the transport).
 */
export class ModernDispatcher {
  /** The listen streams' notifier (the SDK handler's). */
  readonly notify: McpHttpHandler['notify'];
  /** The envelopes the SDK found valid for this leg; absent when it answers nothing itself (a user's `server`). */
  readonly envelopes: EnvelopeMemory | undefined;
  readonly #sdk: McpHttpHandler;
  readonly #build: (() => Promise<FusionServer>) | undefined;
  readonly #transport: SharedModernTransport;
  #server: Promise<FusionServer> | undefined;
  #ready = false;

  /** `prepare` runs on the server after the attach (capabilities the app adds, as its per-request factory does). */
  constructor(
    runtime: FusionRuntime<any>,
    options: ServeOptions<any>,
    sdk: McpHttpHandler,
    prepare?: (server: FusionServer) => void,
  ) {
    this.#sdk = sdk;
    this.notify = sdk.notify;
    this.#transport = new SharedModernTransport({ clock: options.clock ?? systemClock });
    if (options.server !== undefined) {
      this.envelopes = undefined;
      return;
    }
    this.envelopes = new EnvelopeMemory();
    const transport = this.#transport;
    // Built on the first request, not here: Workers refuse random values (ids) and timers at module scope.
    this.#build = async () => {
      const server = ownServer(runtime, options, [...SUPPORTED_PROTOCOL_VERSIONS, MODERN_REVISION]);
      attachOwn(server, runtime, 'modern', (ctx: ServerContext) => {
        ctx.mcpReq.id = transport.clientIdOf(ctx.mcpReq.id);
      });
      prepare?.(server);
      await server.connect(transport);
      return server;
    };
  }

  /** Serves one modern request (`parsedBody`: the JSON body the app read). */
  async fetch(request: Request, options: { parsedBody?: unknown; authInfo?: AuthInfo } = {}): Promise<Response> {
    const admitted = this.admit(request, options.parsedBody);
    return admitted === undefined ? this.#sdk.fetch(request, options) : this.serve(admitted, request, options.authInfo);
  }

  /**
   * The request (with its JSON `body`) when this dispatcher answers it itself, classified once
   * ({@link admitModern}); `undefined` for anything the SDK's entry answers (and with a user's `server`).
   */
  admit(request: Request, body: unknown): Admitted | undefined {
    return this.envelopes === undefined ? undefined : admitModern(request, body, this.envelopes);
  }

  /** Serves a request the app's classification did not admit: the SDK's entry answers (or refuses) it. */
  refer(request: Request, options: { parsedBody?: unknown; authInfo?: AuthInfo }): Promise<Response> {
    return this.#sdk.fetch(request, options);
  }

  /** Serves a request {@link admit} admitted, on the long-lived server. */
  async serve(admitted: Admitted, request: Request, authInfo?: AuthInfo): Promise<Response> {
    if (!this.#ready) {
      await (this.#server ??= this.#build!());
      this.#ready = true;
    }
    return this.#transport.serve(admitted.message, {
      request,
      classification: admitted.classification,
      ...(authInfo !== undefined ? { authInfo } : {}),
    });
  }

  /** Ends the running exchanges (their handlers are aborted), the server, and the SDK handler. */
  async close(): Promise<void> {
    const server = this.#server;
    if (server !== undefined) await (await server).close();
    await this.#sdk.close();
  }
}
