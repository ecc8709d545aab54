/** Modern-era (2026-07-28) requests built by hand, exactly as the SDK v2 `Client` in `auto` mode sends them. */

const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** A fetch-shaped MCP endpoint: the SDK's `createMcpHandler` result or mcp-fusion's app. */
export interface FetchLike {
  fetch(request: Request): Promise<Response>;
}

/** A modern request factory for one JSON-RPC call; each call returns a fresh `Request` (bodies are single-use). */
export function modernRequest(
  method: 'tools/call' | 'tools/list',
  params: Record<string, unknown> = {},
  url = 'http://127.0.0.1/mcp',
): () => Request {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: ENVELOPE } });
  const headers: Record<string, string> = {
    host: '127.0.0.1',
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': method,
  };
  if (method === 'tools/call') headers['mcp-name'] = String(params.name);
  return () => new Request(url, { method: 'POST', headers, body });
}

/** The JSON-RPC result of a response (JSON or SSE); throws on an HTTP or JSON-RPC error. */
export async function resultOf(res: Response): Promise<any> {
  const text = await res.text();
  const type = res.headers.get('content-type') ?? '';
  const messages = type.includes('text/event-stream')
    ? text
        .split('\n')
        .filter((l) => l.startsWith('data:') && l.slice(5).trim() !== '')
        .map((l) => JSON.parse(l.slice(5)))
    : [JSON.parse(text)];
  const answer = messages.find((m: { id?: unknown }) => m.id !== undefined);
  if (res.status !== 200 || answer === undefined || answer.error !== undefined) {
    throw new Error(`modern request failed: HTTP ${res.status} ${text.slice(0, 300)}`);
  }
  return answer.result;
}
