import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort } from '../_helpers/freePort.js';
import { portAnswers } from '../_helpers/waitFor.js';
import { sourceChild } from '../_helpers/sourceChild.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** A server module running in a child Node process on a port of its own (see {@link spawnServer}). */
export interface ServerProcess extends AsyncDisposable {
  readonly port: number;
  /** `http://127.0.0.1:<port>/mcp`. */
  readonly url: string;
  /** Resolves with the exit code (or the signal) once the process ended. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
  /** Sends a signal (SIGTERM by default); returns the time it was sent (`performance.now()`). */
  signal(signal?: NodeJS.Signals): number;
  /** The tail of what the process wrote on stderr, for failure messages. */
  stderr(): string;
}

/**
 * Starts `module` (a path from the repository root) with tsx, `PORT` set (a free port unless `env.PORT` names
 * one) and `env`, and resolves once the port accepts a connection (30 s at most): readiness by the port.
 */
export async function spawnServer(module: string, env: Record<string, string> = {}): Promise<ServerProcess> {
  const port = env.PORT !== undefined ? Number(env.PORT) : await freePort();
  const child = spawn(process.execPath, sourceChild(module), {
    cwd: root,
    env: { ...process.env, NODE_OPTIONS: '', ...env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  child.stderr.on('data', (chunk: Buffer) => void (err = (err + chunk.toString('utf8')).slice(-8_000)));
  let ended = false;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
    child.once('exit', (code, signal) => ((ended = true), resolve({ code, signal, at: performance.now() }))),
  );
  await portAnswers(port, { proc: child, log: () => err, what: module }).catch((error: unknown) => {
    child.kill('SIGKILL');
    throw error;
  });
  return {
    port,
    url: `http://127.0.0.1:${port}/mcp`,
    exited,
    signal: (signal = 'SIGTERM') => (child.kill(signal), performance.now()),
    stderr: () => err,
    async [Symbol.asyncDispose]() {
      if (ended) return;
      child.kill('SIGKILL');
      await exited;
    },
  };
}
