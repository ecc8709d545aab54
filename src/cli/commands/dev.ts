import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, watch } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import { CliError } from '../CliError.js';
import { selectorsOf, withTargetOptions, type CommandContext } from '../context.js';

interface DevOptions {
  registry?: string;
  options?: string;
  fsm?: string;
  watch?: boolean;
}

/** The child that serves the module (TypeScript beside this file when the CLI runs from source). */
const child = fileURLToPath(new URL(`../devServer${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url));

/**
 * `mcp-fusion dev <module>`: serves the module's registry over HTTP (`PORT`/`HOST` as `npm start`) with the
 * dev console, prints both URLs, and restarts the server when a file under the module's folder changes
 * (the console's token and port stay, so an open page reconnects by itself). Runs until SIGINT/SIGTERM.
 */
export function devCommand({ io }: CommandContext): Command {
  return withTargetOptions(new Command('dev'))
    .description('serve a registry with the live dev console (sessions, workflow states, calls), restarting on change')
    .option('--no-watch', 'do not restart when files change')
    .addHelpText(
      'after',
      '\nExamples:\n  mcp-fusion dev src/registry.ts\n  PORT=4000 mcp-fusion dev src/registry.ts --options devOptions\n\nDocs: https://github.com/mcp-fusion/mcp-fusion/blob/main/docs/console.md',
    )
    .action(async (module: string, opts: DevOptions) => {
      const file = resolve(io.cwd, module);
      if (!existsSync(file))
        throw new CliError(
          'CLI_MODULE_NOT_FOUND',
          `Cannot find module "${module}" (looked at ${file}). Pass the file that exports your registry, e.g. \`mcp-fusion dev src/registry.ts\`.`,
          { path: file },
        );
      const host = io.env.HOST ?? '127.0.0.1';
      // PORT=0 picks a free port once: restarts keep it, so the console's URL stays valid.
      const port = io.env.PORT === undefined ? 3000 : Number(io.env.PORT) || (await freePort(host));
      const env = {
        ...io.env,
        PORT: String(port),
        HOST: host,
        MCP_FUSION_DEV_TOKEN: io.env.MCP_FUSION_DEV_TOKEN ?? randomBytes(24).toString('base64url'),
      };
      let current: ChildProcess | undefined;
      let announced = false;
      const start = (): void => {
        const proc = fork(child, [module, JSON.stringify(selectorsOf(opts))], {
          cwd: io.cwd,
          env,
          stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
        });
        current = proc;
        proc.on('message', (message: { type?: string; url?: string; consoleUrl?: string }) => {
          if (message.type !== 'ready') return;
          io.stderr.write(
            announced
              ? `mcp-fusion dev: reloaded ${module}\n`
              : `mcp-fusion dev: serving ${module}\n  MCP endpoint: ${message.url}\n  Console:      ${message.consoleUrl}\n`,
          );
          announced = true;
        });
        proc.on('exit', (code) => {
          if (current === proc && code !== 0 && code !== null)
            io.stderr.write(`mcp-fusion dev: the server stopped (exit ${code}); fix the module and save to reload.\n`);
        });
      };
      const stop = (proc: ChildProcess | undefined): Promise<void> =>
        new Promise((done) =>
          proc === undefined || proc.exitCode !== null || proc.signalCode !== null
            ? done()
            : (proc.once('exit', () => done()), proc.kill('SIGTERM')),
        );
      let timer: NodeJS.Timeout | undefined;
      const watcher =
        opts.watch === false
          ? undefined
          : watch(dirname(file), { recursive: true }, (_event, name) => {
              if (name === null || /(^|[\\/])(node_modules|\.git)([\\/]|$)/.test(name)) return;
              clearTimeout(timer);
              timer = setTimeout(() => void stop(current).then(start), 150);
            });
      start();
      await new Promise<void>((done) => {
        for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => done());
      });
      clearTimeout(timer);
      watcher?.close();
      const last = current;
      current = undefined;
      await stop(last);
    });
}

function freePort(host: string): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer().once('error', fail);
    probe.listen(0, host, () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => done(port));
    });
  });
}
