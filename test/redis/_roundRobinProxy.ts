import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A round-robin HTTP proxy on 127.0.0.1 (see {@link roundRobinProxy}). */
export interface RoundRobinProxy extends AsyncDisposable {
  /** `http://127.0.0.1:<port>/mcp`. */
  readonly url: string;
  /** Requests forwarded, per upstream port (after connection failures were passed on). */
  readonly forwarded: Map<number, number>;
  /** Connections an upstream refused (it was down), each then tried on the next upstream. */
  readonly refused: number;
  /** The request bodies of the exchanges open now on upstream `port`. */
  open(port: number): string[];
}

/**
 * A small load balancer for tests: every request goes to the next upstream port in turn (no affinity), and a
 * request whose connection an upstream refuses (a restarting instance, nothing sent yet) goes to the next ones,
 * as nginx's `proxy_next_upstream error` would. Any other upstream failure is answered 502. Bodies and answers
 * are streamed (SSE included); each request opens its own upstream connection.
 */
export async function roundRobinProxy(upstreams: number[]): Promise<RoundRobinProxy> {
  let next = 0;
  let refused = 0;
  const forwarded = new Map<number, number>();
  const open = new Map<ServerResponse, { port: number; body: Buffer }>();
  const forward = (req: IncomingMessage, body: Buffer, res: ServerResponse, first: number, tries = 0): void => {
    const port = upstreams[(first + tries) % upstreams.length]!;
    open.set(res, { port, body });
    const upstream = request(
      { host: '127.0.0.1', port, method: req.method, path: req.url, headers: req.headers, agent: false },
      (answer) => {
        forwarded.set(port, (forwarded.get(port) ?? 0) + 1);
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNREFUSED' && tries + 1 < upstreams.length && !res.headersSent) {
        refused++;
        forward(req, body, res, first, tries + 1);
      } else if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' }).end(`proxy: ${error.message}`);
      else res.destroy();
    });
    // The client went away (it closed a stream): close the upstream exchange too.
    res.once('close', () => (open.delete(res), upstream.destroy()));
    upstream.end(body);
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => forward(req, Buffer.concat(chunks), res, next++));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
    forwarded,
    get refused() {
      return refused;
    },
    open: (port) => [...open.values()].filter((o) => o.port === port).map((o) => o.body.toString('utf8')),
    async [Symbol.asyncDispose]() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
