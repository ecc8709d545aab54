import { request as httpRequest } from 'node:http';
import { Readable } from 'node:stream';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { forkHeapCapped, type ForkedChild } from './_childServer.js';

/** A server fixture running in a child process under a 256 MiB heap ceiling. */
export type RuntimeChild = ForkedChild;

/**
 * Starts `test/abuse/fixtures/<fixture>.ts` in a child process with `--max-old-space-size=256`; resolves once
 * the child signals that it listens (over IPC) and the port answers.
 */
export function startRuntimeChild(fixture: string): Promise<RuntimeChild> {
  return forkHeapCapped(new URL(`./fixtures/${fixture}.ts`, import.meta.url));
}

/** A `fetch` whose connections come from the loopback address `localAddress` (127.0.0.2, …): another peer. */
export function fetchFrom(localAddress: string): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const body = request.body === null ? undefined : Buffer.from(await request.arrayBuffer());
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => void (headers[name] = value));
    return new Promise<Response>((resolve, reject) => {
      const target = new URL(request.url);
      const req = httpRequest(
        {
          host: target.hostname,
          port: target.port,
          path: target.pathname + target.search,
          method: request.method,
          headers,
          localAddress,
          signal: init?.signal ?? undefined,
        },
        (res) => {
          const headers = new Headers();
          for (const [name, value] of Object.entries(res.headers))
            if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
          const status = res.statusCode ?? 500;
          const stream = status === 204 || status === 304 ? null : (Readable.toWeb(res) as ReadableStream);
          resolve(new Response(stream, { status, headers }));
        },
      );
      req.once('error', reject);
      req.end(body);
    });
  };
}

/** An SDK client connected to `url` from `localAddress` (modern era unless `legacy`), over `fetchImpl` when given. */
export async function clientFrom(
  url: string,
  localAddress: string,
  mode: 'legacy' | 'auto' = 'auto',
  fetchImpl: typeof fetch = fetchFrom(localAddress),
): Promise<Client & AsyncDisposable> {
  const client = new Client(
    { name: `peer-${localAddress}`, version: '1.0.0' },
    mode === 'auto' ? { versionNegotiation: { mode: 'auto' } } : {},
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { fetch: fetchImpl }));
  return Object.assign(client, { [Symbol.asyncDispose]: () => client.close() });
}

/**
 * Every `everyMs` until stopped, a brand-new SDK client from `localAddress` (another principal) connects and
 * lists the tools; `stop` resolves the slowest HTTP round trip of those clients (until the response headers)
 * and the failures seen. Given `progress` (how many calls the abusive peers have had answered so far), it
 * also resolves `mostDuring`: the most abusive calls answered while one probe request waited for its answer.
 */
export function probeFreshClients(
  url: string,
  localAddress: string,
  everyMs = 250,
  progress: () => number = () => 0,
): { stop(): Promise<{ rounds: number; slowestMs: number; mostDuring: number; failures: string[] }> } {
  let stopped = false;
  let slowestMs = 0;
  let mostDuring = 0;
  let rounds = 0;
  const failures: string[] = [];
  const base = fetchFrom(localAddress);
  const timed: typeof fetch = async (input, init) => {
    const started = performance.now();
    const before = progress();
    const response = await base(input, init);
    slowestMs = Math.max(slowestMs, performance.now() - started);
    mostDuring = Math.max(mostDuring, progress() - before);
    return response;
  };
  const loop = (async () => {
    while (!stopped) {
      try {
        await using client = await clientFrom(url, localAddress, 'auto', timed);
        await client.listTools();
      } catch (error) {
        failures.push(error instanceof Error ? error.message : String(error));
      }
      rounds++;
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      return { rounds, slowestMs, mostDuring, failures };
    },
  };
}

/** Polls the child's heap until it is within `marginMiB` of `baselineMiB` or `withinMs` passes; resolves the last reading. */
export async function heapSettles(
  child: RuntimeChild,
  baselineMiB: number,
  marginMiB: number,
  withinMs: number,
): Promise<number> {
  const deadline = performance.now() + withinMs;
  let heap = await child.heapMiB();
  while (heap - baselineMiB > marginMiB && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    heap = await child.heapMiB();
  }
  return heap;
}
