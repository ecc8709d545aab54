import { fork, spawn } from 'node:child_process';
import { request } from 'node:http';
import { relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../_helpers/freePort.js';
import { portAnswers } from '../_helpers/waitFor.js';
import { childModuleUrl, forkedChild, sourceChild } from '../_helpers/sourceChild.js';

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

/** A fixture served by `_runtimeChildEntry.ts` in a forked child at a 256 MiB heap, reporting its heap over IPC. */
export interface ForkedChild extends AsyncDisposable {
  readonly url: string;
  readonly port: number;
  /** Heap in use in the child after a full collection, in MiB. */
  heapMiB(): Promise<number>;
  /** Moves the fixture's test clock by `ms` (its timers run on the way); for fixtures that return a `clock`. */
  advance(ms: number): Promise<void>;
  /** True while the child process runs (it died, e.g. of an out-of-memory, otherwise). */
  alive(): boolean;
  /** What the child wrote to stderr ('' when its stderr is left unread). */
  log(): string;
  close(): Promise<void>;
}

/**
 * Forks `test/abuse/_runtimeChildEntry.ts` serving the fixture module `fixture` (a URL) with
 * `--max-old-space-size=256 --expose-gc`; resolves once the child signals its port over IPC and that port
 * answers. `stderr: 'unread'` leaves the child's stderr pipe unread (a log reader that never reads).
 */
export async function forkHeapCapped(
  fixture: URL,
  options: { stderr?: 'collect' | 'unread' } = {},
): Promise<ForkedChild> {
  const module = relative(root, fileURLToPath(fixture)).split(sep).join('/');
  // Bundled when its fixture is (the fixture is imported into the entry's module graph), else both under tsx.
  const entry = forkedChild('test/abuse/_runtimeChildEntry.ts', [module]);
  const child = fork(entry.modulePath, [], {
    cwd: root,
    execArgv: ['--max-old-space-size=256', '--expose-gc', ...entry.execArgv],
    env: { ...process.env, NODE_OPTIONS: '', ABUSE_FIXTURE: childModuleUrl(module) },
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  let log = '';
  if (options.stderr !== 'unread') child.stderr!.on('data', (chunk: Buffer) => void (log += chunk.toString('utf8')));
  const alive = (): boolean => child.exitCode === null && child.signalCode === null;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = await new Promise<{ url: string; port: number }>((resolve, reject) => {
    child.once('exit', (code, signal) => reject(new Error(`${fixture.pathname} exited (${code ?? signal}):\n${log}`)));
    child.on('message', (m: { type?: string; url?: string; port?: number }) => {
      if (m.type === 'ready') resolve({ url: m.url!, port: m.port! });
    });
  });
  await portAnswers(ready.port, { proc: child, log: () => log, ms: 15_000, what: fixture.pathname });
  let asked = 0;
  const heapMiB = (): Promise<number> =>
    new Promise((resolve, reject) => {
      const id = ++asked;
      const timer = setTimeout(
        () => reject(new Error(`the child did not report its heap within 30 s:\n${log}`)),
        30_000,
      );
      const onMessage = (m: { type?: string; id?: number; heapUsed?: number }): void => {
        if (m.type !== 'heap' || m.id !== id) return;
        clearTimeout(timer);
        child.off('message', onMessage);
        resolve(m.heapUsed! / 2 ** 20);
      };
      child.on('message', onMessage);
      child.send({ type: 'heap', id });
    });
  const advance = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const id = ++asked;
      const onMessage = (m: { type?: string; id?: number }): void => {
        if (m.type !== 'advanced' || m.id !== id) return;
        child.off('message', onMessage);
        resolve();
      };
      child.on('message', onMessage);
      child.send({ type: 'advance', id, ms });
    });
  const close = async (): Promise<void> => {
    if (!alive()) return;
    // Unread stderr may block the child's own shutdown: it is killed outright then.
    if (options.stderr === 'unread') child.kill('SIGKILL');
    else child.disconnect();
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  };
  return {
    url: ready.url,
    port: ready.port,
    heapMiB,
    advance,
    alive,
    log: () => log,
    close,
    [Symbol.asyncDispose]: close,
  };
}
