// `npx --package ./mcp-fusion-<version>.tgz mcp-fusion create demo`, as a new user runs it, outside the
// repository: the project depends on that tarball (not on npx's cache), and its own scripts pass there.
// Run by pack.test.ts, which packs the tarball once.
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { basename, dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../_helpers/freePort.js';
import { until } from '../_helpers/waitFor.js';

const exec = promisify(execFile);

interface ScaffoldInputs {
  /** A temporary folder outside the repository, where the tarball lies. */
  readonly work: string;
  /** The packed tarball. */
  readonly tarball: string;
  readonly npmFlags: readonly string[];
}

/** What the scaffold's two long steps printed: `npx … create demo` (with its `npm install`), then `npm test`. */
export interface ScaffoldRun {
  readonly tarball: string;
  readonly work: string;
  readonly created: Promise<Output>;
  readonly tested: Promise<Output>;
  /** `npm run -s inspect`, `lint:fusion` and `diagram`, one after the other once `npm test` has passed. */
  readonly scripts: Promise<Record<'inspect' | 'lint' | 'diagram', Output>>;
}

interface Output {
  stdout: string;
  stderr: string;
}

/** The environment of the nested npm commands: without the variables of the vitest running this file. */
function childEnv(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !key.startsWith('VITEST') && key !== 'NODE_ENV' && key !== 'TEST'),
  );
  // The `npm install` that `create` runs prefers the local cache, as the other installs of the pack test do.
  return { ...env, npm_config_prefer_offline: 'true' };
}

/**
 * `npm start` in `cwd` as the user runs it (its own process group): its output so far, `listening` once the
 * server says so, and `closed` once npm's output ends (with npm's exit code).
 */
function npmStart(cwd: string, port: number) {
  const child = spawn('npm', ['start'], {
    cwd,
    env: { ...childEnv(), PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const output = { stdout: '', stderr: '' };
  child.stdout.on('data', (chunk: Buffer) => (output.stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output.stderr += chunk.toString('utf8')));
  const closed = new Promise<number | null>((resolve) => child.once('close', resolve));
  const listening = new Promise<void>((resolve, reject) => {
    child.stderr.on('data', () => {
      if (output.stderr.includes(`listening on http://127.0.0.1:${port}/mcp`)) resolve();
    });
    void closed.then(() => reject(new Error(`npm start ended before listening:\n${output.stdout}${output.stderr}`)));
  });
  // Awaited only by the tests that expect the server up (the others see it end first).
  listening.catch(() => undefined);
  return { child, output, closed, listening };
}

/** Whether a process of group `pgid` is still alive. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Resolves true once no process of group `pgid` is left (a process group's end has no event to wait on). */
async function groupEnds(pgid: number, withinMs: number): Promise<boolean> {
  return until(() => !groupAlive(pgid), `process group ${pgid} to end`, withinMs).then(
    () => true,
    () => false,
  );
}

async function npm(cwd: string, ...args: string[]): Promise<Output> {
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

const demoOf = (work: string): string => join(work, 'new-user', 'demo');

/**
 * Starts `npx --package <tarball> mcp-fusion create demo` (which runs `npm install`), then the project's own
 * `npm test`, as soon as the tarball exists: pack.test.ts meanwhile installs and exercises getting-started's
 * project (the two chains are independent, so each core runs one). {@link describeScaffold}'s tests await them.
 */
export function startScaffold({ work, tarball, npmFlags }: ScaffoldInputs): ScaffoldRun {
  const home = join(work, 'new-user');
  mkdirSync(home);
  // The path as the user types it, relative to where the tarball lies.
  const given = join('..', basename(tarball));
  expect(dirname(tarball)).toBe(work);
  const create = (): Promise<Output> =>
    npm(home, 'npx', '--yes', ...npmFlags, '--package', given, 'mcp-fusion', 'create', 'demo');
  // npx locks its install folder twice (read, then install); under load, a touch of the first lock still under
  // way when the second is taken changes the second's time stamp, and npx fails with "Lock compromised"
  // (ECOMPROMISED) before it runs `create`. That race is npm's: npx is run once more then, as a user would.
  const created = create().catch((error: Error) =>
    /\bECOMPROMISED\b/.test(error.message) ? create() : Promise.reject(error),
  );
  const demo = demoOf(work);
  const tested = created.then(() => npm(demo, 'test'));
  const scripts = tested.then(async () => ({
    inspect: await npm(demo, 'run', '-s', 'inspect'),
    lint: await npm(demo, 'run', '-s', 'lint:fusion'),
    diagram: await npm(demo, 'run', '-s', 'diagram'),
  }));
  // Awaited by the tests below (a failure fails them), not before: not an unhandled rejection meanwhile.
  scripts.catch(() => undefined);
  return { tarball, work, created, tested, scripts };
}

export function describeScaffold(started: () => ScaffoldRun): void {
  describe('npx --package <tarball> mcp-fusion create, outside the repository', () => {
    const tarball = (): string => started().tarball;
    let demo = '';
    let created: Output = { stdout: '', stderr: '' };

    beforeAll(async () => {
      demo = demoOf(started().work);
      created = await started().created;
    }, 240_000);

    // npx keeps what it installed in <npm cache>/_npx/<hash>/: remove the folder that holds this run's tarball.
    afterAll(async () => {
      const npx = join((await npm(started().work, 'config', 'get', 'cache')).stdout.trim(), '_npx');
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
      // It installed the project's dependencies itself, and said so.
      expect(created.stderr).toContain('Installing dependencies (npm install)…\n');
      expect(created.stderr).toMatch(/✔ Installed in \d+\.\ds/);
      expect(existsSync(join(demo, 'node_modules', 'mcp-fusion', 'package.json'))).toBe(true);
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
      expect((await started().tested).stdout).toMatch(/Tests\s+.*5 passed/);
    }, 200_000);

    it('npm start stops with npm: `kill <npm pid>` ends the server too and releases the port', async () => {
      const port = await freePort();
      const start = npmStart(demo, port);
      try {
        await start.listening;
        expect((await fetch(`http://127.0.0.1:${port}/mcp`, { method: 'GET' })).status).toBeGreaterThan(0);
        process.kill(start.child.pid!, 'SIGTERM');
        // npm's shell does not pass the signal on; the server notices its parent is gone (it checks every
        // 250 ms) and closes. Nothing tells this test when: watch the process group empty, within 20 s.
        expect(await groupEnds(start.child.pid!, 20_000)).toBe(true);
        await expect(fetch(`http://127.0.0.1:${port}/mcp`)).rejects.toThrow();
      } finally {
        if (groupAlive(start.child.pid!)) process.kill(-start.child.pid!, 'SIGKILL');
      }
    }, 90_000);

    it('npm start on a busy port prints the ServerStartError message first, without a stack, and fails', async () => {
      const busy = createServer();
      await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
      const port = (busy.address() as { port: number }).port;
      try {
        const start = npmStart(demo, port);
        expect(await start.closed).not.toBe(0);
        const lines = start.output.stderr.split('\n').filter((line) => line.trim() !== '');
        expect(lines[0], start.output.stderr).toBe(
          `Port ${port} on 127.0.0.1 is already in use (another server is listening there). Stop that server, or choose another port: set the PORT environment variable (PORT=3001 npm start) or pass { port: 3001 } (0 picks a free port) to startServer().`,
        );
        expect(start.output.stderr).not.toMatch(/^\s+at /m);
      } finally {
        await new Promise<void>((resolve) => busy.close(() => resolve()));
      }
    }, 90_000);

    it('runs its inspect, lint:fusion and diagram scripts', async () => {
      const { inspect, lint, diagram } = await started().scripts;
      expect(inspect.stdout).toMatch(
        /^src\/registry\.ts: 3 tools, FSM "tasks" \(initial "empty"; states empty, has_tasks\)/,
      );
      expect(inspect.stdout).toMatch(/tasks\.clear\s+mutation\s+destructive/);
      expect(lint).toEqual({
        stdout: '✔ src/registry.ts: no problems\n',
        stderr: '',
      });
      expect(diagram.stdout).toBe('wrote diagrams/tasks.mmd\nwrote diagrams/tasks.svg\n');
      expect(readFileSync(join(demo, 'diagrams', 'tasks.svg'), 'utf8')).toContain('>tasks.clear</text>');
      expect(existsSync(join(demo, 'diagrams', 'tasks.mmd'))).toBe(true);
    }, 120_000);
  });
}
