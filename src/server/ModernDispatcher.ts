import {
  classifyInboundRequest,
  isJsonContentType,
  isJSONRPCRequest,
  SUPPORTED_PROTOCOL_VERSIONS,
  type AuthInfo,
  type JSONRPCRequest,
  type McpHttpHandler,
  type MessageClassification,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { attachOwn } from '../adapter/attach.js';
import type { FusionServer } from '../adapter/FusionServer.js';
import type { FusionRuntime } from '../runtime/FusionRuntime.js';
import { ownServer } from './buildServer.js';
import { MODERN_REVISION, SharedModernTransport } from './SharedModernTransport.js';
import type { ServeOptions } from './types.js';

/** The request field the SDK checks the `Mcp-Name` header against, per method (SEP-2243). */
const NAME_FIELD: Readonly<Record<string, string>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};

/** A request the dispatcher answers itself: the message and the SDK's classification of it. */
interface Admitted {
  readonly message: JSONRPCRequest;
  readonly classification: MessageClassification;
}

/**
 * The modern (2026-07-28) leg of the HTTP app: one server per runtime, built and attached once and connected
 * once to a {@link SharedModernTransport}, answers every ordinary request (nothing is constructed per
 * request but the exchange record). What it does not answer goes to the SDK's `createMcpHandler` (`sdk`),
 * which builds a server per request: `subscriptions/listen`, notifications, and every request the SDK's
 * entry would refuse before a handler runs (so those refusals stay the SDK's own, byte for byte). With a
 * user's `server` option, everything goes to `sdk`.
 *
 * Public SDK pieces used: `classifyInboundRequest` (the entry's era and envelope classification),
 * `isJsonContentType`, `isJSONRPCRequest`, `SUPPORTED_PROTOCOL_VERSIONS`, `Server` (its `_wrapHandler`
 * subclass hook, in {@link FusionServer}) and `PerRequestHTTPServerTransport` (see the transport).
 */
export class ModernDispatcher {
  /** The listen streams' notifier (the SDK handler's). */
  readonly notify: McpHttpHandler['notify'];
  readonly #sdk: McpHttpHandler;
  readonly #build: (() => Promise<FusionServer>) | undefined;
  readonly #transport = new SharedModernTransport();
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
    if (options.server !== undefined) return;
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
    const admitted = this.#build === undefined ? undefined : admit(request, options.parsedBody);
    if (admitted === undefined) return this.#sdk.fetch(request, options);
    if (!this.#ready) {
      await (this.#server ??= this.#build!());
      this.#ready = true;
    }
    const { authInfo } = options;
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

/**
 * The request when the SDK's entry would hand it to a server unchanged: a JSON POST of one request (not a
 * listen) that the SDK classifies as modern at the revision served, with the standard headers its checks
 * require (`Mcp-Name`, where the method has a name, in plain form equal to the body's). Anything else is
 * left to the SDK's entry, which answers it (or refuses it) itself.
 */
function admit(request: Request, body: unknown): Admitted | undefined {
  if (request.method !== 'POST' || !isJSONRPCRequest(body) || body.method === 'subscriptions/listen') return undefined;
  const { headers } = request;
  const protocolVersionHeader = headers.get('mcp-protocol-version');
  const mcpMethodHeader = headers.get('mcp-method');
  if (protocolVersionHeader === null || mcpMethodHeader === null || !isJsonContentType(headers.get('content-type')))
    return undefined;
  const mcpNameHeader = headers.get('mcp-name');
  const field = Object.hasOwn(NAME_FIELD, body.method) ? NAME_FIELD[body.method]! : undefined;
  if (field !== undefined) {
    const value = (body.params as Record<string, unknown> | undefined)?.[field];
    const plain =
      typeof value === 'string' ? mcpNameHeader === value && !value.startsWith('=?base64?') : mcpNameHeader === null;
    if (!plain) return undefined;
  }
  const outcome = classifyInboundRequest({
    httpMethod: 'POST',
    protocolVersionHeader,
    mcpMethodHeader,
    ...(mcpNameHeader !== null ? { mcpNameHeader } : {}),
    body,
  });
  if (
    outcome.kind !== 'modern' ||
    outcome.messageKind !== 'request' ||
    outcome.classification.revision !== MODERN_REVISION
  )
    return undefined;
  return { message: outcome.message, classification: outcome.classification };
}
