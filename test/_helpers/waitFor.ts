import type { ChildProcess } from 'node:child_process';
import { connect } from 'node:net';

/** True once a TCP connection to 127.0.0.1:`port` is accepted (the socket is closed at once). */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => (socket.destroy(), resolve(false)));
  });
}

/** True once a Redis server on 127.0.0.1:`port` answers `PING` with `PONG` (not `-LOADING`, not refused). */
function pongs(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    let reply = '';
    const done = (ok: boolean): void => (socket.destroy(), resolve(ok));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk: Buffer) => {
      reply += chunk.toString();
      if (reply.includes('\r\n')) done(reply.startsWith('+PONG'));
    });
    socket.once('error', () => done(false));
    socket.once('close', () => done(false));
  });
}

/**
 * Resolves once 127.0.0.1:`port` accepts connections: readiness from the port itself, never from what a
 * process prints. Rejects when `proc` exits first (with `log()` in the message) or after `ms`.
 */
export async function portAnswers(port: number, options: PortWait = {}): Promise<void> {
  await polled(() => accepts(port), { what: `the server on port ${port}`, ...options });
}

/** Like {@link portAnswers}, for a Redis server: resolves once it answers `PING` (its data loaded). */
export async function redisAnswers(port: number, options: PortWait = {}): Promise<void> {
  await polled(() => pongs(port), { what: `redis-server on port ${port}`, ms: 10_000, ...options });
}

/** What {@link portAnswers} watches: the process that should listen (its exit fails the wait), its log, a deadline. */
export interface PortWait {
  proc?: ChildProcess;
  log?: () => string;
  ms?: number;
  what?: string;
}

async function polled(ready: () => Promise<boolean>, options: PortWait & { what: string }): Promise<void> {
  const { proc, log = () => '', ms = 30_000, what } = options;
  const deadline = Date.now() + ms;
  for (;;) {
    if (proc !== undefined && (proc.exitCode !== null || proc.signalCode !== null)) {
      throw new Error(`${what} exited (${proc.exitCode ?? proc.signalCode}) before it listened:\n${log()}`);
    }
    if (await ready()) return;
    if (Date.now() > deadline) throw new Error(`${what} did not listen within ${ms} ms:\n${log()}`);
    // Nothing signals "listening" across processes but the port: it is polled.
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Resolves once `check()` holds, for state a test can read but not await (a counter a handler bumps, a
 * notification log); rejects after `ms` naming `what`. A condition, checked every few milliseconds: not a sleep.
 */
export async function until(check: () => boolean | Promise<boolean>, what: string, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}
