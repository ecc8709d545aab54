import { Agent, request } from 'node:http';
import { Readable } from 'node:stream';

type Fetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

/**
 * A `fetch` whose connections leave from the local address `peer` (127.0.0.2, 127.0.0.3 … are distinct peers
 * on Linux, all routed to lo), over node:http with keep-alive. Response bodies stream (SSE works); the
 * request's signal aborts the exchange. `close()` ends its sockets. For SDK clients:
 * `new StreamableHTTPClientTransport(url, { fetch: from.fetch })`.
 */
export function fetchFrom(peer: string): { fetch: Fetch; close: () => void } {
  const agent = new Agent({ keepAlive: true, localAddress: peer });
  const fetch: Fetch = async (url, init = {}) => {
    const prepared = new Request(url, init);
    const body = prepared.body === null ? undefined : Buffer.from(await prepared.arrayBuffer());
    const headers: Record<string, string> = {};
    prepared.headers.forEach((value, key) => (headers[key] = value));
    return new Promise((resolve, reject) => {
      const req = request(String(url), { method: prepared.method, headers, agent }, (res) => {
        const out = new Headers();
        for (const [key, value] of Object.entries(res.headers)) {
          if (value === undefined) continue;
          for (const v of Array.isArray(value) ? value : [value]) out.append(key, v);
        }
        const status = res.statusCode ?? 0;
        const nullBody = status === 204 || status === 304 || prepared.method === 'HEAD';
        if (nullBody) res.resume();
        const stream = nullBody ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>);
        resolve(new Response(stream, { status, statusText: res.statusMessage ?? '', headers: out }));
      });
      const signal = init.signal;
      const abort = (): void =>
        void req.destroy(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
      if (signal?.aborted === true) abort();
      signal?.addEventListener('abort', abort, { once: true });
      req.on('error', reject);
      req.end(body);
    });
  };
  return { fetch, close: () => agent.destroy() };
}
