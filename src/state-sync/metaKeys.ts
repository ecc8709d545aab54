/**
 * The `_meta` keys State Sync writes, under one prefix (`fusion/`) that MCP does not reserve, so hosts
 * and clients can act on cache facts without parsing prose:
 * - `fusion/cacheControl` on a listed tool: its directive, `'no-store'` or `'immutable'`;
 * - `fusion/invalidation` on an invalidating result: `{ patterns, causedBy, at }` (see `InvalidationMeta`).
 * @see docs/state-sync.md
 */
export const META = Object.freeze({
  cacheControl: 'fusion/cacheControl',
  invalidation: 'fusion/invalidation',
} as const);
