import { spawn, type ChildProcess } from 'node:child_process';

import { freePort } from '../_helpers/freePort.js';
import { redisAnswers } from '../_helpers/waitFor.js';

export { freePort };

const INSTALL =
  process.getuid?.() === 0
    ? 'apt-get update && apt-get install -y redis-server'
    : 'sudo apt-get update && sudo apt-get install -y redis-server';

/** A private `redis-server` on 127.0.0.1, for tests. */
export interface RedisServer {
  readonly port: number;
  readonly url: string;
  /** Stops the server (SIGTERM, then SIGKILL after 2 s). */
  stop(): Promise<void>;
  /** Starts it again on the same port (for outage tests). */
  start(): Promise<void>;
}

/**
 * Starts `redis-server --port <free> --bind 127.0.0.1 --save '' --appendonly no`. With `persistDir`, a
 * stop (SIGTERM) writes a snapshot there that the next start loads, as a restarted production Redis would.
 */
export async function startRedisServer(options: { persistDir?: string } = {}): Promise<RedisServer> {
  const chosen = await freePort();
  const persistence =
    options.persistDir === undefined ? ['--save', ''] : ['--save', '3600 1', '--dir', options.persistDir];
  let child: ChildProcess | undefined;
  const start = async (): Promise<void> => {
    const proc = spawn(
      'redis-server',
      [
        '--port',
        String(chosen),
        '--bind',
        '127.0.0.1',
        ...persistence,
        '--appendonly',
        'no',
        '--protected-mode',
        'yes',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child = proc;
    let output = '';
    proc.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    proc.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const missing = new Promise<never>((_, reject) =>
      proc.once('error', (error) =>
        reject(new Error(`could not run redis-server (${error.message}); install it: ${INSTALL}`)),
      ),
    );
    await Promise.race([missing, redisAnswers(chosen, { proc, log: () => output })]);
  };
  const stop = async (): Promise<void> => {
    const proc = child;
    child = undefined;
    if (proc === undefined || proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
    proc.kill('SIGTERM');
    const timer = setTimeout(() => proc.kill('SIGKILL'), 2_000);
    await exited;
    clearTimeout(timer);
  };
  await start();
  return { port: chosen, url: `redis://127.0.0.1:${chosen}`, stop, start };
}
