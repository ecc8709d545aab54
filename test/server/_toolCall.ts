/** The `tools/call` params the era-routing tests send. */
export const call = { name: 'echo.say', arguments: { text: 'x' } };

/** A raw JSON-RPC `tools/call` request (id 1) of {@link call}, with `extra` over its fields. */
export const tool = (extra: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: call,
  ...extra,
});
