/** A JSON-RPC error as an HTTP response (`id` null by default: the request could not be read or routed). */
export function jsonRpcErrorResponse(status: number, code: number, message: string, headers: Record<string, string> = {}, id: string | number | null = null): Response {
  return Response.json({ jsonrpc: '2.0', error: { code, message }, id }, { status, headers });
}
