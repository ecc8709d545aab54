import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import { freePort } from '../_helpers/freePort.js';
import { sourceChild } from '../_helpers/sourceChild.js';
import { portAnswers } from '../_helpers/waitFor.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** A process of `fixtures/taskServer.ts` (or another fixture `script`) on the run's Redis. */
export interface TaskProcess {
  readonly url: string;
  readonly port: number;
  readonly proc: ChildProcess;
  readonly log: () => string;
  /** SIGKILL: the process dies mid-run, renewing nothing and storing nothing. */
  kill(): Promise<void>;
}

/** Starts the fixture in its own process, sharing Redis under `prefix`; resolves once its port answers. */
export async function taskProcess(
  prefix: string,
  env: Record<string, string>,
  script = 'test/redis/fixtures/taskServer.ts',
): Promise<TaskProcess> {
  const port = await freePort();
  const proc = spawn(process.execPath, sourceChild(script), {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      REDIS_URL: inject('redisUrl'),
      REDIS_PREFIX: prefix,
      NODE_OPTIONS: '',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  proc.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
  // A loaded machine (two cores, several suites) may take long to start a tsx process.
  await portAnswers(port, { proc, log: () => log, what: `the process of ${script}`, ms: 60_000 });
  const kill = async (): Promise<void> => {
    if (proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
    proc.kill('SIGKILL');
    await exited;
  };
  return { url: `http://127.0.0.1:${port}/mcp`, port, proc, log: () => log, kill };
}

/** A process of `fixtures/taskWorker.ts`: resolves once it says `ready` (its BullMQ worker connected). */
export async function workerProcess(
  prefix: string,
  env: Record<string, string>,
): Promise<Omit<TaskProcess, 'url' | 'port'>> {
  const proc = spawn(process.execPath, sourceChild('test/redis/fixtures/taskWorker.ts'), {
    cwd: root,
    env: { ...process.env, REDIS_URL: inject('redisUrl'), REDIS_PREFIX: prefix, NODE_OPTIONS: '', ...env },
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  let log = '';
  proc.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    proc.once('message', () => resolve());
    proc.once('exit', (code) =>
      reject(new Error(`the task worker exited (${String(code)}) before it was ready:\n${log}`)),
    );
  });
  const kill = async (): Promise<void> => {
    if (proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
    proc.kill('SIGKILL');
    await exited;
  };
  return { proc, log: () => log, kill };
}
