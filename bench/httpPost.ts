import { request as httpRequest, type Agent, type IncomingMessage } from 'node:http';

/** One HTTP answer of an MCP endpoint: status, headers and every JSON-RPC message (JSON or SSE). */
export interface Reply {
  status: number;
  headers: IncomingMessage['headers'];
  messages: any[];
}

/** POSTs one JSON-RPC message to `http://127.0.0.1:<port>/mcp` over a keep-alive agent. */
export function post(agent: Agent, port: number, body: unknown, headers: Record<string, string>): Promise<Reply> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path: '/mcp',
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'content-length': Buffer.byteLength(payload),
          ...headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const sse = (res.headers['content-type'] ?? '').includes('text/event-stream');
          const messages =
            text === ''
              ? []
              : sse
                ? text
                    .split('\n')
                    .filter((l) => l.startsWith('data:') && l.slice(5).trim() !== '')
                    .map((l) => JSON.parse(l.slice(5)))
                : [JSON.parse(text)];
          resolve({ status: res.statusCode ?? 0, headers: res.headers, messages });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}
