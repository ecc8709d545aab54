import { spawn } from 'node:child_process';
import { repo } from './_run.js';

/** A running `mcp-fusion dev` (the repository's bin, from source), its stderr collected. */
export interface DevProcess extends AsyncDisposable {
  /** Everything printed on stderr so far. */
  readonly stderr: () => string;
  /** Resolves with stderr once `pattern` appears in it; fails if the process exits first or after `ms`. */
  waitFor(pattern: RegExp, ms?: number): Promise<RegExpMatchArray>;
  /** The MCP endpoint's URL, once it is printed. */
  url(): Promise<string>;
  /** Resolves with the exit code once the process ends on its own. */
  exited(): Promise<number | null>;
}

/** Starts `mcp-fusion dev <args>` on a port the OS picks (`PORT=0`), from the repository root. */
export function startDev(args: string[], env: Record<string, string | undefined> = {}): DevProcess {
  const proc = spawn(process.execPath, ['bin/mcp-fusion.js', 'dev', ...args], {
    cwd: repo,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  const listeners = new Set<() => void>();
  proc.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    for (const listener of listeners) listener();
  });
  const exited = new Promise<number | null>((done) => proc.once('exit', (code) => done(code)));
  const waitFor = (pattern: RegExp, ms = 30_000): Promise<RegExpMatchArray> =>
    new Promise((done, fail) => {
      const check = (): void => {
        const match = stderr.match(pattern);
        if (match === null) return;
        finish();
        done(match);
      };
      const timer = setTimeout(() => {
        finish();
        fail(new Error(`mcp-fusion dev did not print ${pattern} within ${ms} ms; stderr:\n${stderr}`));
      }, ms);
      const finish = (): void => {
        clearTimeout(timer);
        listeners.delete(check);
      };
      listeners.add(check);
      void exited.then((code) => {
        if (!listeners.has(check)) return;
        finish();
        fail(new Error(`mcp-fusion dev exited (${code}) before printing ${pattern}; stderr:\n${stderr}`));
      });
      check();
    });
  return {
    stderr: () => stderr,
    waitFor,
    url: () => waitFor(/MCP endpoint: (\S+)/).then((m) => m[1]!),
    exited: () => exited,
    async [Symbol.asyncDispose]() {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM');
      await exited;
    },
  };
}
