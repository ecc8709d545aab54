import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { freePort } from './redisServer.js';
import { redisAnswers } from '../_helpers/waitFor.js';

const run = promisify(execFile);

/** A private Redis Cluster on 127.0.0.1 (masters, optionally one replica each; no persistence), for tests. */
export interface RedisCluster {
  /** Every node; with replicas, redis-cli chose which are masters (ask `ROLE`). */
  readonly nodes: Array<{ host: string; port: number }>;
  /** The process id of the node on `port` (for CPU time from /proc). */
  pidOf(port: number): number;
  /** SIGKILL of one node: it dies mid-whatever, as a crashed host would. Resolves once it exited. */
  kill(port: number): Promise<void>;
  /** `host:port,host:port,…`, as the example's REDIS_CLUSTER_NODES takes it. */
  readonly spec: string;
  /** Runs `redis-cli -p <port> <args…>` against one node and resolves its output. */
  cli(port: number, ...args: string[]): Promise<string>;
  /** Kills every node and removes their directory. */
  stop(): Promise<void>;
}

/**
 * A free port not in `taken` (below the kernel's ephemeral range, as {@link freePort} draws). A node's cluster bus
 * gets one of its own (`--cluster-port`): the default, port + 10,000, lies in the ephemeral range, where any
 * outgoing connection may take it between the check and the node's bind.
 */
async function untakenPort(taken: Set<number>): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = await freePort();
    if (!taken.has(port)) return port;
  }
  throw new Error('no free port for a cluster node after 50 draws');
}

/** Options of {@link startRedisCluster}. */
export interface RedisClusterOptions {
  /** Replicas per master (0 or 1; default 0). With 1, ready means every replica's link to its master is up. */
  replicas?: 0 | 1;
  /** `cluster-node-timeout` (5,000 ms): how long a master may be unreachable before its replica takes over. */
  nodeTimeoutMs?: number;
}

/**
 * Starts `masters` (× 1 + `replicas`) redis-server processes with `--cluster-enabled yes` in a temporary
 * directory, joins them with `redis-cli --cluster create … --cluster-replicas <n> --cluster-yes` and waits
 * for `cluster_state:ok` on every node, and with replicas for `master_link_status:up` on each (15 s at most).
 * Anything that fails on the way is cleaned up.
 */
export async function startRedisCluster(masters = 3, options: RedisClusterOptions = {}): Promise<RedisCluster> {
  const { replicas = 0, nodeTimeoutMs = 5_000 } = options;
  const byPort = new Map<number, ChildProcess>();
  const logs = new Map<number, () => string>();
  const dir = mkdtempSync(join(tmpdir(), 'fusion-cluster-'));
  const procs: ChildProcess[] = [];
  const stop = async (): Promise<void> => {
    await Promise.all(
      procs.map((proc) =>
        proc.exitCode !== null || proc.signalCode !== null
          ? undefined
          : new Promise<void>((resolve) => {
              proc.once('exit', () => resolve());
              proc.kill('SIGKILL');
            }),
      ),
    );
    rmSync(dir, { recursive: true, force: true });
  };
  const cli = async (port: number, ...args: string[]): Promise<string> =>
    (await run('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...args], { timeout: 10_000 })).stdout;
  try {
    const taken = new Set<number>();
    const ports: number[] = [];
    const busPorts = new Map<number, number>();
    for (let i = 0; i < masters * (1 + replicas); i++) {
      const port = await untakenPort(taken);
      taken.add(port);
      const bus = await untakenPort(taken);
      taken.add(bus);
      ports.push(port);
      busPorts.set(port, bus);
    }
    await Promise.all(
      ports.map(async (port) => {
        const args = [
          '--port',
          String(port),
          '--cluster-port',
          String(busPorts.get(port)),
          '--bind',
          '127.0.0.1',
          '--cluster-enabled',
          'yes',
          '--cluster-config-file',
          `nodes-${port}.conf`,
          '--cluster-node-timeout',
          String(nodeTimeoutMs),
          '--dir',
          dir,
          '--save',
          '',
          '--appendonly',
          'no',
        ];
        const proc = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
        procs.push(proc);
        byPort.set(port, proc);
        let output = '';
        logs.set(port, () => output);
        proc.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
        proc.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
        await redisAnswers(port, { proc, log: () => output, what: `cluster node ${port}` });
      }),
    );
    const create = [
      '--cluster',
      'create',
      ...ports.map((p) => `127.0.0.1:${p}`),
      '--cluster-replicas',
      String(replicas),
      '--cluster-yes',
    ];
    await run('redis-cli', create, { timeout: 15_000 }).catch((error: { stdout?: string; killed?: boolean }) => {
      const nodes = ports.map((p) => `--- node ${p} (bus ${busPorts.get(p)}):\n${logs.get(p)?.().slice(-1_500)}`);
      throw new Error(
        `redis-cli ${create.join(' ')} ${error.killed === true ? 'did not finish within 15 s' : 'failed'}:\n${error.stdout ?? ''}\n${nodes.join('\n')}`,
        { cause: error },
      );
    });
    const deadline = Date.now() + 15_000;
    for (const port of ports) {
      while (!(await cli(port, 'cluster', 'info')).includes('cluster_state:ok')) {
        if (Date.now() > deadline) throw new Error(`cluster node ${port} never reached cluster_state:ok`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      // A replica counts once it has synced with its master (redis-cli picks which nodes are replicas).
      while (
        /role:slave/.test(await cli(port, 'info', 'replication')) &&
        !/master_link_status:up/.test(await cli(port, 'info', 'replication'))
      ) {
        if (Date.now() > deadline) throw new Error(`cluster replica ${port} never linked to its master`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    const nodes = ports.map((port) => ({ host: '127.0.0.1', port }));
    const kill = async (port: number): Promise<void> => {
      const proc = byPort.get(port);
      if (proc === undefined || proc.exitCode !== null || proc.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
      proc.kill('SIGKILL');
      await exited;
    };
    return {
      nodes,
      spec: nodes.map((n) => `${n.host}:${n.port}`).join(','),
      cli,
      stop,
      kill,
      pidOf: (port) => byPort.get(port)!.pid!,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * Moves one hash slot from the node that owns it to another, the way `redis-cli --cluster reshard` does:
 * `CLUSTER SETSLOT … IMPORTING/MIGRATING`, `MIGRATE` of its keys in batches, then `SETSLOT … NODE` on
 * every node. Clients see `ASK`/`MOVED` redirections meanwhile and follow them.
 */
export async function moveSlot(
  cluster: RedisCluster,
  slot: number,
  pause: () => Promise<void> = async () => {},
): Promise<{ from: number; to: number; keys: number }> {
  const admins = new Map(cluster.nodes.map((n) => [n.port, new Redis(n.port, n.host)]));
  try {
    const ids = new Map<number, string>();
    for (const [port, admin] of admins) ids.set(port, String(await admin.cluster('MYID')));
    const [owner] = (
      (await admins.values().next().value!.cluster('SLOTS')) as unknown as Array<[number, number, [string, number]]>
    )
      .filter(([start, end]) => start <= slot && slot <= end)
      .map(([, , [, port]]) => port);
    const from = owner!;
    const to = cluster.nodes.map((n) => n.port).find((p) => p !== from)!;
    const source = admins.get(from)!;
    const target = admins.get(to)!;
    await target.cluster('SETSLOT', slot, 'IMPORTING', ids.get(from)!);
    await source.cluster('SETSLOT', slot, 'MIGRATING', ids.get(to)!);
    let moved = 0;
    for (;;) {
      const keys = (await source.cluster('GETKEYSINSLOT', slot, 10)) as string[];
      if (keys.length === 0) break;
      await source.call('MIGRATE', '127.0.0.1', String(to), '', '0', '5000', 'KEYS', ...keys);
      moved += keys.length;
      await pause();
    }
    for (const admin of [target, source, ...admins.values()])
      await admin.cluster('SETSLOT', slot, 'NODE', ids.get(to)!);
    return { from, to, keys: moved };
  } finally {
    for (const admin of admins.values()) admin.disconnect();
  }
}
