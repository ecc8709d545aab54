/**
 * `_meta` keys mcp-fusion writes, under one prefix (`fusion/`) that is not reserved by MCP.
 * @see docs/state-sync.md
 */
export const META = {
  /** On a listed tool: its cache directive. */
  cacheControl: 'fusion/cacheControl',
  /** On an invalidating result: `{ patterns, causedBy, at }`. */
  invalidation: 'fusion/invalidation',
} as const;
