import { existsSync } from 'node:fs';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { Command } from 'commander';
import { CliError } from '../CliError.js';
import type { CommandContext } from '../context.js';
import { displayPath } from '../displayPath.js';
import { fusionSpec } from '../create/fusionSpec.js';
import { packageInfo } from '../create/packageInfo.js';
import { runInstall } from '../create/runInstall.js';
import { scaffoldFiles } from '../create/templates.js';

interface CreateOptions {
  install: boolean;
  force?: boolean;
  fusion?: string;
}

/** `mcp-fusion create <dir>`: a working project that passes its own `npm test` right after `npm install`. */
export function createCommand({ io }: CommandContext): Command {
  return new Command('create')
    .description(
      'scaffold a project: server, a query, an action and a mutation, a State Sync policy, an FSM and a test',
    )
    .argument('<dir>', 'directory to create (must be empty or absent)')
    .option('--no-install', 'write the files but skip `npm install`')
    .option('--force', 'write into a directory that is not empty')
    .option(
      '--fusion <spec>',
      'the mcp-fusion dependency to use: a version range, a .tgz path or file:<dir> (default: this checkout via file:, else the .tgz or directory npx installed this command from, else this version from the registry, else this installed copy via file:)',
    )
    .addHelpText('after', '\nExample:\n  npx mcp-fusion create my-server && cd my-server && npm test\n')
    .action(async (dir: string, opts: CreateOptions) => {
      const target = resolve(io.cwd, dir);
      if (existsSync(target) && (await readdir(target)).length > 0 && opts.force !== true) {
        throw new CliError(
          'CLI_DIR_NOT_EMPTY',
          `"${dir}" is not empty; choose a new directory, or pass --force to write into it anyway.`,
          { dir: target },
        );
      }
      const pkg = packageInfo();
      const { spec: fusion, linked, reason, note } = await fusionSpec(pkg, { given: opts.fusion, cwd: io.cwd });
      if (note !== undefined) io.stderr.write(`Note: ${note}\n`);
      const files = scaffoldFiles({ name: packageName(target), fusion, linked, ranges: pkg.ranges });
      for (const [path, content] of Object.entries(files)) {
        const file = join(target, path);
        await mkdir(dirname(file), { recursive: true });
        await writeFile(file, content);
      }
      const shown = displayPath(io.cwd, target);
      io.stdout.write(
        `Created ${shown} (mcp-fusion ${fusion}):\n${Object.keys(files)
          .map((f) => `  ${f}`)
          .join('\n')}\n`,
      );
      io.stdout.write(`mcp-fusion dependency: ${fusion} (${reason}; --fusion <spec> chooses another)\n`);
      if (opts.install) await runInstall(target, io, fusion);
      const steps = [
        ...(shown === '.' ? [] : [`cd ${shown}`]),
        ...(opts.install ? [] : ['npm install']),
        'npm test',
        'npm start',
      ];
      io.stdout.write(`\nNext:\n${steps.map((s) => `  ${s}`).join('\n')}\n`);
    });
}

/** A valid npm name from the directory name. */
function packageName(dir: string): string {
  const name = basename(dir)
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[._-]+/, '');
  return name === '' ? 'mcp-server' : name.slice(0, 214);
}
