import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { portAnswers } from '../_helpers/waitFor.js';
import { fetchFrom } from '../_helpers/peerFetch.js';
import { freePort } from './redisServer.js';
import { sourceChild } from '../_helpers/sourceChild.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** One example-server process (`examples/workspace/main.ts`) on its own port. */
export interface Instance {
  readonly port: number;
  readonly proc: ChildProcess;
  /** Everything it wrote to stderr. */
  readonly log: () => string;
  /** SIGKILL: the process dies mid-whatever, without closing anything. */
  kill(): Promise<void>;
}

/** Starts the example server the way `npm start` does, with REDIS_URL (or REDIS_CLUSTER_NODES, a `{ cluster }` spec) set, and waits until its port answers. */
export async function startInstance(
  redis: string | { cluster: string },
  prefix: string,
  env: Record<string, string> = {},
): Promise<Instance> {
  const port = await freePort();
  const proc = spawn(process.execPath, sourceChild('examples/workspace/main.ts'), {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      ...(typeof redis === 'string' ? { REDIS_URL: redis } : { REDIS_CLUSTER_NODES: redis.cluster }),
      REDIS_PREFIX: prefix,
      NODE_OPTIONS: '',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  proc.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
  await portAnswers(port, { proc, log: () => log, what: `example server on port ${port}` });
  const kill = async (): Promise<void> => {
    if (proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
    proc.kill('SIGKILL');
    await exited;
  };
  return { port, proc, log: () => log, kill };
}

/**
 * A v2 SDK client over real HTTP whose every request goes to the next live port in turn, as a load
 * balancer without affinity would; `route` pins the first requests to given ports.
 */
export async function balancedClient(
  ports: number[],
  options: { mode?: 'legacy' | 'auto'; route?: number[]; peer?: string } = {},
): Promise<Client & { sent: Array<{ method: string; port: number }>; ports: number[] }> {
  const client = new Client(
    { name: 'balanced', version: '1.0.0' },
    options.mode === 'auto' ? { versionNegotiation: { mode: 'auto' } } : {},
  );
  const route = [...(options.route ?? [])];
  const sent: Array<{ method: string; port: number }> = [];
  let next = 0;
  // From a loopback address of its own (`peer`): anonymous callers are their network peer.
  const send = options.peer === undefined ? fetch : fetchFrom(options.peer).fetch;
  const transport = new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), {
    fetch: (url, init) => {
      const port = route.shift() ?? ports[next++ % ports.length]!;
      const target = new URL(url);
      target.port = String(port);
      sent.push({ method: init?.method ?? 'GET', port });
      return send(target, init);
    },
  });
  await client.connect(transport);
  return Object.assign(client, { sent, ports });
}
