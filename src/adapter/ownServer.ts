import type { FusionServer } from './FusionServer.js';

export type { FusionServer };

/** Marks mcp-fusion's own servers ({@link FusionServer} sets it): readable without loading the SDK. */
export const OWN_SERVER: unique symbol = Symbol('mcp-fusion.ownServer');

/** True for a server mcp-fusion built itself (attached without composition, no SDK internals read). */
export function isOwnServer(value: unknown): value is FusionServer {
  return typeof value === 'object' && value !== null && (value as { [OWN_SERVER]?: unknown })[OWN_SERVER] === true;
}
