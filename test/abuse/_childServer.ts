import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { freePort } from '../_helpers/freePort.js';
import { portAnswers } from '../_helpers/waitFor.js';
import { sourceChild } from '../_helpers/sourceChild.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** A server module running in a child process with a 256 MiB heap ceiling (see {@link startChildServer}). */
export interface ChildServer extends AsyncDisposable {
  readonly port: number;
  /** `http://127.0.0.1:<port>/mcp`. */
  readonly url: string;
  /** The child's heap used after a full collection, in MiB (its debug hook). */
  heapMiB(): Promise<number>;
  /** The legacy sessions the child tracks (live or idle) and those live (its debug hook). */
  sessions(): Promise<{ tracked: number; live: number }>;
  /** False once the child exited (crashed or killed). */
  alive(): boolean;
  /** What the child wrote on stderr (the tail), for failure messages. */
  stderr(): string;
}

/**
 * Starts `module` (a path from the repository root, e.g. `test/abuse/fixtures/server.ts`) in a child Node
 * process with `--max-old-space-size=256 --expose-gc`, on a free port, and resolves once that port accepts a
 * connection (15 s at most). `env` is added to the child's environment; the child gets `PORT` and `DEBUG_PORT`.
 */
export async function startChildServer(module: string, env: Record<string, string> = {}): Promise<ChildServer> {
  const [port, debugPort] = [await freePort(), await freePort()];
  const child = spawn(process.execPath, ['--max-old-space-size=256', '--expose-gc', ...sourceChild(module)], {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port), DEBUG_PORT: String(debugPort) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  let exited = false;
  child.stderr.on('data', (chunk: Buffer) => void (err = (err + chunk.toString('utf8')).slice(-4_000)));
  const exit = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  void exit.then(() => (exited = true));
  const wait = { proc: child, log: () => err, ms: 15_000, what: 'the child server' };
  await Promise.all([portAnswers(port, wait), portAnswers(debugPort, wait)]).catch((error: unknown) => {
    child.kill('SIGKILL');
    throw error;
  });
  return {
    port,
    url: `http://127.0.0.1:${port}/mcp`,
    heapMiB: async () => (await statsOf(debugPort)).heapUsed / 2 ** 20,
    sessions: async () => {
      const stats = await statsOf(debugPort);
      return { tracked: stats.sessions, live: stats.live };
    },
    alive: () => !exited,
    stderr: () => err,
    async [Symbol.asyncDispose]() {
      if (exited) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exit;
      clearTimeout(timer);
    },
  };
}

function statsOf(port: number): Promise<{ heapUsed: number; sessions: number; live: number }> {
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port, path: '/stats', agent: false }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => void (body += c.toString('utf8')));
      res.on('end', () => resolve(JSON.parse(body) as { heapUsed: number; sessions: number; live: number }));
    })
      .on('error', reject)
      .end();
  });
}
