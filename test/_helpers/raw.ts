/** Raw JSON-RPC over a fetch-shaped app, for tests that must see the wire. */
export interface RawApp {
  fetch(request: Request): Promise<Response>;
}

const base = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', host: '127.0.0.1' };

/** Every JSON-RPC message of a response body (JSON or SSE). */
export async function messagesOf(res: Response): Promise<any[]> {
  const text = await res.text();
  if (!(res.headers.get('content-type') ?? '').includes('text/event-stream'))
    return text === '' ? [] : [JSON.parse(text)].flat();
  return text
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(5).trim())
    .filter((data) => data !== '')
    .map((data) => JSON.parse(data));
}

/** POSTs one message; `sid` adds the legacy session headers. */
export function post(app: RawApp, body: unknown, sid?: string, url = 'http://127.0.0.1/mcp'): Promise<Response> {
  const headers: Record<string, string> = { ...base };
  if (sid !== undefined) Object.assign(headers, { 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25' });
  return app.fetch(new Request(url, { method: 'POST', headers, body: JSON.stringify(body) }));
}

/** Opens a legacy session: initialize (+ notifications/initialized unless `complete` is false). */
export async function openSession(app: RawApp, complete = true): Promise<string> {
  const res = await post(app, {
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  });
  const sid = res.headers.get('mcp-session-id');
  await res.text();
  if (sid === null) throw new Error(`initialize failed with ${res.status}`);
  if (complete) await (await post(app, { jsonrpc: '2.0', method: 'notifications/initialized' }, sid)).text();
  return sid;
}

/** One request in a session; resolves to its JSON-RPC response message. */
export async function request(
  app: RawApp,
  sid: string,
  id: number,
  method: string,
  params: unknown = {},
): Promise<{ status: number; message: any }> {
  const res = await post(app, { jsonrpc: '2.0', id, method, params }, sid);
  const all = await messagesOf(res);
  return { status: res.status, message: all.find((m) => m.id === id) ?? all[0] };
}
