import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import { CliError } from '../CliError.js';
import { selectorsOf, withTargetOptions, type CommandContext } from '../context.js';
import { GraphWatcher } from '../dev/GraphWatcher.js';
import { collectDevToken, describeDevTokens, parseDevTokens } from '../dev/devTokenFlag.js';
import { displayPath } from '../displayPath.js';

interface DevOptions {
  registry?: string;
  options?: string;
  fsm?: string;
  watch?: boolean;
  devToken?: string[];
}

/** The child that serves the module (TypeScript beside this file when the CLI runs from source). */
const child = fileURLToPath(new URL(`../devServer${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url));

/**
 * `mcp-fusion dev <module>`: serves the module's registry over HTTP (`PORT`/`HOST` as `npm start`) with the
 * dev console, prints both URLs, and restarts the server when a file the module imported changes (its module
 * graph, as the loader resolved it; other files beside it are not watched), naming the file. The console's
 * token and port stay, so an open page reconnects by itself. `--dev-token` serves with `devTokens()`.
 * Runs until SIGINT/SIGTERM.
 */
export function devCommand({ io }: CommandContext): Command {
  return withTargetOptions(new Command('dev'))
    .description('serve a registry with the live dev console (sessions, workflow states, calls), restarting on change')
    .option('--no-watch', 'do not restart when an imported file changes')
    .option(
      '--dev-token <token=scopes>',
      'accept `Authorization: Bearer <token>` granting the comma-separated scopes (development only; repeatable)',
      collectDevToken,
    )
    .addHelpText(
      'after',
      '\nExamples:\n  mcp-fusion dev src/registry.ts\n  mcp-fusion dev src/registry.ts --dev-token dev-admin=admin,notes:write\n  PORT=4000 mcp-fusion dev src/registry.ts --options devOptions\n\nDocs: https://github.com/mcp-fusion/mcp-fusion/blob/main/docs/console.md',
    )
    .action(async (module: string, opts: DevOptions) => {
      const file = resolve(io.cwd, module);
      if (!existsSync(file))
        throw new CliError(
          'CLI_MODULE_NOT_FOUND',
          `Cannot find module "${module}" (looked at ${file}). Pass the file that exports your registry, e.g. \`mcp-fusion dev src/registry.ts\`.`,
          { path: file },
        );
      const tokens = parseDevTokens(opts.devToken, io.env);
      const host = io.env.HOST ?? '127.0.0.1';
      // PORT=0 picks a free port once: restarts keep it, so the console's URL stays valid.
      const port = io.env.PORT === undefined ? 3000 : Number(io.env.PORT) || (await freePort(host));
      const env = {
        ...io.env,
        PORT: String(port),
        HOST: host,
        MCP_FUSION_DEV_TOKEN: io.env.MCP_FUSION_DEV_TOKEN ?? randomBytes(24).toString('base64url'),
        ...(tokens === undefined ? {} : { MCP_FUSION_DEV_AUTH: JSON.stringify(tokens) }),
      };
      let restarting = Promise.resolve();
      const watcher =
        opts.watch === false
          ? undefined
          : new GraphWatcher({
              onChange: (changed) => {
                io.stderr.write(`mcp-fusion dev: ${displayPath(io.cwd, changed)} changed, reloading\n`);
                restarting = restarting.then(() => stop(current)).then(start);
              },
            });
      watcher?.add([file]);
      let current: ChildProcess | undefined;
      let announced = false;
      let fatal: string | undefined;
      let stopNow = (): void => {};
      const start = (): void => {
        const proc = fork(child, [module, JSON.stringify(selectorsOf(opts))], {
          cwd: io.cwd,
          env,
          stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
        });
        current = proc;
        proc.on('message', (message: DevMessage) => {
          if (message.type === 'files') watcher?.add(message.files ?? []);
          if (message.type === 'fatal') {
            fatal = message.message ?? 'the server could not start';
            stopNow();
          }
          if (message.type !== 'ready') return;
          io.stderr.write(
            announced
              ? `mcp-fusion dev: reloaded ${module}\n`
              : `mcp-fusion dev: serving ${module}\n  MCP endpoint: ${message.url}\n  Console:      ${message.consoleUrl}\n${tokens === undefined ? '' : describeDevTokens(tokens)}`,
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
      start();
      await new Promise<void>((done) => {
        stopNow = done;
        for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => done());
      });
      watcher?.close();
      await restarting;
      const last = current;
      current = undefined;
      await stop(last);
      if (fatal !== undefined) throw new CliError('SERVER_START', fatal);
    });
}

/** What the server process tells `dev` over IPC. */
interface DevMessage {
  type?: 'files' | 'ready' | 'failed' | 'fatal';
  url?: string;
  consoleUrl?: string;
  files?: string[];
  message?: string;
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
