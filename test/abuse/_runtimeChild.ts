import { fork, type ChildProcess } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { childModuleUrl, forkedChild } from '../_helpers/sourceChild.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const MiB = 2 ** 20;

/** A server fixture running in a child process under a 256 MiB heap ceiling. */
export interface RuntimeChild extends AsyncDisposable {
  readonly url: string;
  /** Heap in use in the child after a full collection, in MiB. */
  heapMiB(): Promise<number>;
  /** True while the child process runs (it died, e.g. of an out-of-memory, otherwise). */
  alive(): boolean;
  /** What the child wrote to stderr. */
  log(): string;
  close(): Promise<void>;
}

/**
 * Starts `test/abuse/fixtures/<fixture>.ts` in a child process with `--max-old-space-size=256`; resolves once
 * the child signals that it listens (over IPC) and the port answers.
 */
export async function startRuntimeChild(fixture: string): Promise<RuntimeChild> {
  const module = `test/abuse/fixtures/${fixture}.ts`;
  // Bundled when its fixture is (the fixture is imported into the entry's module graph), else both under tsx.
  const entry = forkedChild('test/abuse/_runtimeChildEntry.ts', [module]);
  const child: ChildProcess = fork(entry.modulePath, [], {
    cwd: root,
    execArgv: ['--max-old-space-size=256', '--expose-gc', ...entry.execArgv],
    env: { ...process.env, NODE_OPTIONS: '', ABUSE_FIXTURE: childModuleUrl(module) },
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  let log = '';
  child.stderr!.on('data', (chunk: Buffer) => void (log += chunk.toString('utf8')));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`fixture ${fixture} did not start within 20 s:\n${log}`)), 20_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`fixture ${fixture} exited with ${code}:\n${log}`));
    });
    child.on('message', (m: { type?: string; url?: string }) => {
      if (m.type !== 'ready') return;
      clearTimeout(timer);
      resolve(m.url!);
    });
  });
  const answers = await fetchFrom('127.0.0.1')(url, { method: 'OPTIONS' });
  await answers.text();
  let asked = 0;
  const heapMiB = (): Promise<number> =>
    new Promise((resolve, reject) => {
      const id = ++asked;
      const timer = setTimeout(
        () => reject(new Error(`fixture ${fixture} did not report its heap within 10 s:\n${log}`)),
        10_000,
      );
      const onMessage = (m: { type?: string; id?: number; heapUsed?: number }): void => {
        if (m.type !== 'heap' || m.id !== id) return;
        clearTimeout(timer);
        child.off('message', onMessage);
        resolve(m.heapUsed! / MiB);
      };
      child.on('message', onMessage);
      child.send({ type: 'heap', id });
    });
  const alive = (): boolean => child.exitCode === null && child.signalCode === null;
  const close = async (): Promise<void> => {
    if (!alive()) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.disconnect();
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  };
  return { url, heapMiB, alive, log: () => log, close, [Symbol.asyncDispose]: close };
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
 * and the failures seen.
 */
export function probeFreshClients(
  url: string,
  localAddress: string,
  everyMs = 250,
): { stop(): Promise<{ rounds: number; slowestMs: number; failures: string[] }> } {
  let stopped = false;
  let slowestMs = 0;
  let rounds = 0;
  const failures: string[] = [];
  const base = fetchFrom(localAddress);
  const timed: typeof fetch = async (input, init) => {
    const started = performance.now();
    const response = await base(input, init);
    slowestMs = Math.max(slowestMs, performance.now() - started);
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
      return { rounds, slowestMs, failures };
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
