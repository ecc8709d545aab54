// `npx --package ./mcp-fusion-<version>.tgz mcp-fusion create demo`, as a new user runs it, outside the
// repository: the project depends on that tarball (not on npx's cache), and its own scripts pass there.
// Run by pack.test.ts, which packs the tarball once.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const exec = promisify(execFile);

interface ScaffoldInputs {
  /** A temporary folder outside the repository. */
  readonly work: string;
  /** The packed tarball (known once pack.test.ts's beforeAll has run). */
  readonly tarball: () => string;
  readonly npmFlags: readonly string[];
}

/** The environment of the nested npm commands: without the variables of the vitest running this file. */
function childEnv(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !key.startsWith('VITEST') && key !== 'NODE_ENV' && key !== 'TEST'),
  );
  // The `npm install` that `create` runs prefers the local cache, as the other installs of the pack test do.
  return { ...env, npm_config_prefer_offline: 'true' };
}

async function npm(cwd: string, ...args: string[]): Promise<{ stdout: string; stderr: string }> {
  try {
    return await exec(args[0] === 'npx' ? 'npx' : 'npm', args[0] === 'npx' ? args.slice(1) : args, {
      cwd,
      env: childEnv(),
      timeout: 200_000,
      maxBuffer: 16 * 1024 * 1024,
    });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`${args.join(' ')} (in ${cwd}) failed:\n${stdout ?? ''}\n${stderr ?? ''}`);
  }
}

export function describeScaffold({ work, tarball, npmFlags }: ScaffoldInputs): void {
  describe('npx --package <tarball> mcp-fusion create, outside the repository', () => {
    const home = join(work, 'new-user');
    const demo = join(home, 'demo');
    let created = { stdout: '', stderr: '' };

    beforeAll(async () => {
      mkdirSync(home);
      // The path as the user types it, relative to where the tarball lies.
      const given = join('..', basename(tarball()));
      expect(dirname(tarball())).toBe(work);
      created = await npm(home, 'npx', '--yes', ...npmFlags, '--package', given, 'mcp-fusion', 'create', 'demo');
    }, 240_000);

    // npx keeps what it installed in <npm cache>/_npx/<hash>/: remove the folder that holds this run's tarball.
    afterAll(async () => {
      const npx = join((await npm(work, 'config', 'get', 'cache')).stdout.trim(), '_npx');
      for (const dir of existsSync(npx) ? readdirSync(npx) : []) {
        const manifest = join(npx, dir, 'package.json');
        const spec = existsSync(manifest)
          ? (JSON.parse(readFileSync(manifest, 'utf8')) as { dependencies?: Record<string, string> }).dependencies?.[
              'mcp-fusion'
            ]
          : undefined;
        if (spec?.startsWith('file:') === true && resolve(npx, dir, spec.slice('file:'.length)) === tarball())
          rmSync(join(npx, dir), { recursive: true, force: true });
      }
    }, 60_000);

    it('depends on the tarball the user gave, by its absolute path, and says so', () => {
      expect(created.stdout).toContain(
        `mcp-fusion dependency: file:${tarball()} (the tarball this command was installed from; --fusion <spec> chooses another)\n`,
      );
      const manifest = JSON.parse(readFileSync(join(demo, 'package.json'), 'utf8')) as {
        dependencies: Record<string, string>;
        devDependencies: Record<string, string>;
      };
      expect(manifest.dependencies['mcp-fusion']).toBe(`file:${tarball()}`);
      expect(readFileSync(join(demo, 'package-lock.json'), 'utf8')).not.toContain('_npx');
      // What its test imports, it depends on.
      const test = readFileSync(join(demo, 'test', 'registry.test.ts'), 'utf8');
      const imported = [...test.matchAll(/from '((?:@[^/']+\/)?[^/'.][^/']*)/g)]
        .map((m) => m[1]!)
        .filter((n) => n !== 'mcp-fusion');
      expect(imported.filter((n) => !(n in { ...manifest.dependencies, ...manifest.devDependencies }))).toEqual([]);
    });

    it('passes its own npm test', async () => {
      expect((await npm(demo, 'test')).stdout).toMatch(/Tests\s+.*5 passed/);
    }, 200_000);

    it('runs its inspect, lint:fusion and diagram scripts', async () => {
      const inspect = await npm(demo, 'run', '-s', 'inspect');
      expect(inspect.stdout).toMatch(
        /^src\/registry\.ts: 3 tools, FSM "tasks" \(initial "empty"; states empty, has_tasks\)/,
      );
      expect(inspect.stdout).toMatch(/tasks\.clear\s+mutation\s+destructive/);
      expect(await npm(demo, 'run', '-s', 'lint:fusion')).toEqual({
        stdout: '✔ src/registry.ts: no problems\n',
        stderr: '',
      });
      expect((await npm(demo, 'run', '-s', 'diagram')).stdout).toBe(
        'wrote diagrams/tasks.mmd\nwrote diagrams/tasks.svg\n',
      );
      expect(readFileSync(join(demo, 'diagrams', 'tasks.svg'), 'utf8')).toContain('>tasks.clear</text>');
      expect(existsSync(join(demo, 'diagrams', 'tasks.mmd'))).toBe(true);
    }, 120_000);
  });
}
