import type { SdkErrorCode } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { ProtocolEra } from '../protocol/types.js';
import { AttachError } from '../errors/FusionError.js';
import { capabilitiesFor } from './capabilitiesFor.js';
import { compose, type ServedNames } from './composeServer.js';
import { installedHandler, installMcpServerHandlers, mcpServerNames } from './sdkHandlers.js';
import { resolveServer, type ServerLike } from './sdkLine.js';
import type { FusionRuntime } from '../runtime/FusionRuntime.js';
import { extensionCapabilities } from './extensionCapabilities.js';
import { isOwnServer, type FusionServer } from './ownServer.js';
import { installV2 } from './installV2.js';
import { wireRuntime, type WireOptions } from './wireRuntime.js';

/** What `attachToServer` returns. */
export interface Attachment {
  /** `v2` (the current SDK line) or `v1` (`@modelcontextprotocol/sdk`). */
  readonly sdk: 'v1' | 'v2';
  /** Sends `notifications/tools/list_changed` to this server's client(s). */
  notifyToolListChanged(): Promise<void>;
  /** Sends `notifications/prompts/list_changed` (declared when the registry has prompts). */
  notifyPromptListChanged(): Promise<void>;
  /** Sends `notifications/resources/list_changed`, e.g. when what a template's `.list()` reports changed. */
  notifyResourceListChanged(): Promise<void>;
  /**
   * Sends `notifications/resources/updated` for `uri` to the sessions of this server that subscribed to it
   * (`resources/subscribe`, with the `resourceSubscriptions` option), and to nobody else.
   */
  notifyResourceUpdated(uri: string): Promise<void>;
  /**
   * The resource at `uri` was deleted: its subscribers on this server get a last
   * `notifications/resources/updated` (a read now answers "Resource not found"), their subscriptions end,
   * and the client gets `notifications/resources/list_changed`.
   */
  notifyResourceDeleted(uri: string): Promise<void>;
  /** Releases the per-session state this attachment created. */
  detach(): void;
}

/** The v2 SDK's `SdkErrorCode.AlreadyConnected` (compared by value: no SDK import at run time here). */
const ALREADY_CONNECTED: `${SdkErrorCode.AlreadyConnected}` = 'ALREADY_CONNECTED';

const NO_NAMES: ServedNames = Object.freeze({ tools: [], prompts: [], resources: [], templates: [] });

/**
 * Installs `tools/list` and `tools/call` on a server over a prebuilt pipeline, plus the prompt and
 * resource methods when its registry has any, and declares exactly those capabilities. On mcp-fusion's own
 * server ({@link FusionServer}) the handlers are installed as they are; on a user's server, what it serves
 * itself (an `McpServer`'s `registerTool()` entries, a low-level server's own handlers) and what other
 * registries attached to it serve stays listed and callable beside the registry's (reading SDK internals,
 * see sdkHandlers.ts); a name both serve is refused.
 */
export function attachRuntime<Ctx>(server: unknown, runtime: FusionRuntime<Ctx>, era?: ProtocolEra): Attachment {
  if (isOwnServer(server)) return attachOwn(server, runtime, era);
  const { low, sdk, mcp } = resolveServer(server);
  const capabilities = capabilitiesFor(runtime);
  let own = NO_NAMES;
  prepare(low, () => {
    if (mcp !== undefined) {
      // The McpServer installs its own handlers first, so that its registerTool() keeps working after attach.
      for (const kind of ['tools', 'prompts', 'resources', 'completions'] as const)
        if (kind in capabilities) installMcpServerHandlers(mcp, kind);
      own = mcpServerNames(mcp);
    }
    low.registerCapabilities?.({
      ...capabilities,
      ...(sdk === 'v2' ? extensionCapabilities(runtime, era) : {}),
    });
  });
  // A v1 Server installs logging/setLevel only when constructed with the capability: mcp-fusion keeps the levels then.
  const v1Levels = sdk === 'v1' && runtime.features.logging && installedHandler(low, 'logging/setLevel') === undefined;
  const { member, alone, negotiated, attachment } = wireRuntime(low, sdk, runtime, era, { v1Levels });
  // The task methods are the registry's alone (the v2 line only): installed as they are, never composed.
  for (const { method, handler, schema } of alone) installV2(low, method, handler, schema);
  try {
    compose(
      low,
      member,
      own,
      (method, handler) =>
        sdk === 'v2' ? installV2(low, method, handler) : low.setRequestHandler(v1Schema(method), handler),
      (method) => low.removeRequestHandler?.(method),
    );
  } catch (error) {
    if (error instanceof AttachError) throw error;
    throw new AttachError(
      'ATTACH_HANDLERS',
      `attachToServer() could not install ${listMethods([...member.handlers.keys()])}: ${(error as Error).message}.`,
    );
  }
  // The SDK answers initialize itself; wrapping its handler gives the handshake its span.
  const tracing = runtime.features.tracing;
  const initialize =
    tracing !== undefined && era !== 'modern' && sdk === 'v2' ? installedHandler(low, 'initialize') : undefined;
  if (initialize !== undefined)
    low.setRequestHandler(
      'initialize',
      tracing!.wrap('initialize', (request, ctx) => initialize(request, ctx), negotiated),
    );
  endWithConnection(low, attachment.detach);
  return attachment;
}

/**
 * Attaches a runtime to mcp-fusion's own server: capabilities declared, handlers installed as they are
 * (nothing else serves on it), no SDK internals read. `adopt` runs on each request's SDK context first.
 */
export function attachOwn<Ctx>(
  server: FusionServer,
  runtime: FusionRuntime<Ctx>,
  era?: ProtocolEra,
  adopt?: WireOptions['adopt'],
): Attachment {
  prepare(server, () =>
    server.registerCapabilities({
      ...capabilitiesFor(runtime),
      ...extensionCapabilities(runtime, era),
    }),
  );
  const { member, alone, negotiated, attachment } = wireRuntime(server, 'v2', runtime, era, { adopt });
  for (const { method, handler, schema } of alone) installV2(server, method, handler, schema);
  for (const [method, handler] of member.handlers) installV2(server, method, handler);
  const tracing = runtime.features.tracing;
  if (tracing !== undefined && era !== 'modern')
    server.aroundInitialize = (handler) => tracing.wrap('initialize', handler as never, negotiated) as never;
  endWithConnection(server as ServerLike, attachment.detach);
  return attachment;
}

/**
 * Runs the capability step of an attach. A connected server cannot take capabilities: told by its public
 * `transport` (both SDK lines) or by the v2 error code, never by the error's wording.
 */
function prepare(low: object, step: () => void): void {
  const connected = (reason: string) =>
    new AttachError('ATTACH_CONNECTED', `attachToServer() must run before server.connect(): ${reason}.`);
  if ((low as { transport?: unknown }).transport !== undefined)
    throw connected('this server is connected to a transport already');
  try {
    step();
  } catch (error) {
    const message = (error as Error).message;
    if ((error as { code?: unknown }).code === ALREADY_CONNECTED)
      throw connected(`the server refused to add its capabilities (${message})`);
    throw new AttachError('ATTACH_HANDLERS', `attachToServer() could not prepare this server: ${message}.`);
  }
}

function endWithConnection(low: ServerLike, detach: () => void): void {
  const previous = low.onclose;
  low.onclose = () => {
    previous?.();
    detach();
  };
}

function listMethods(methods: readonly string[]): string {
  return methods.length <= 2 ? methods.join(' and ') : `${methods.slice(0, -1).join(', ')} and ${methods.at(-1)}`;
}

function v1Schema(method: string): z.ZodType {
  return z.looseObject({ method: z.literal(method), params: z.any().optional() });
}
