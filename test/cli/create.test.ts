import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { fusionSpec } from '../../src/cli/create/fusionSpec.js';
import type { PackageInfo } from '../../src/cli/create/packageInfo.js';
import { scaffoldFiles } from '../../src/cli/create/templates.js';
import { cli, repo } from './_run.js';

const run = promisify(execFile);
const dirs: string[] = [];
const tempDir = async (): Promise<string> => {
  const dir = await mkdtemp(join(tmpdir(), 'fusion-create-'));
  dirs.push(dir);
  return dir;
};
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

/** The environment of a nested `npm test`, without the variables of the vitest running this file. */
function childEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !key.startsWith('VITEST') && key !== 'NODE_ENV' && key !== 'TEST'),
  );
}

describe('mcp-fusion create', () => {
  it('scaffolds a project that passes its own npm test right after npm install', { timeout: 240_000 }, async () => {
    const dir = join(await tempDir(), 'my-server');
    // The `npm install` that `create` runs takes what the local cache holds, as the pack test's installs do
    // (without it, npm asks the registry again for every package of a project that has no lockfile yet).
    vi.stubEnv('npm_config_prefer_offline', 'true');
    const { code, stdout, stderr } = await cli('create', dir).finally(() => vi.unstubAllEnvs());
    expect({ code, stderr: stderr.replace(/\d+(\.\d+)?s/g, 'Ns') }).toMatchObject({
      code: 0,
      stderr: expect.stringContaining('Installing dependencies (npm install)…\n'),
    });
    expect(stderr).toMatch(/✔ Installed in \d+\.\ds/);
    expect(stdout).toContain(`(mcp-fusion file:${repo})`);
    const manifest = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8'));
    expect(manifest.dependencies['mcp-fusion']).toBe(`file:${repo}`);
    // Linked to this checkout, its type check and its tests load the TypeScript sources (tsconfig.json's
    // `paths`, vitest.config.ts's alias): what the scaffold from the tarball (test/package/scaffoldSuite.ts, which
    // also runs its `mcp-fusion lint` and the other scripts) does not prove.
    const test = await run('npm', ['test'], { cwd: dir, env: childEnv(), timeout: 180_000 });
    expect(test.stdout).toMatch(/Tests\s+.*5 passed/);
  });

  it('--no-install writes the files and says what to run next', async () => {
    const dir = join(await tempDir(), 'Tasks App');
    const { code, stdout, stderr } = await cli('create', dir, '--no-install', '--fusion', '^9.9.9');
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout).toContain('Next:\n');
    expect(stdout).toContain('  npm install\n  npm test\n');
    expect(existsSync(join(dir, 'node_modules'))).toBe(false);
    const manifest = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8'));
    expect(manifest).toMatchObject({ name: 'tasks-app', dependencies: { 'mcp-fusion': '^9.9.9' } });
    expect(await readFile(join(dir, 'vitest.config.ts'), 'utf8')).not.toContain('mcp-fusion-source');
  });

  it('refuses a directory that is not empty', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'keep.txt'), 'mine');
    const { code, stderr } = await cli('create', dir, '--no-install');
    expect(code).toBe(2);
    expect(stderr).toBe(
      `error: "${dir}" is not empty; choose a new directory, or pass --force to write into it anyway.\n`,
    );
  });

  it('writes a server, three tool kinds, a State Sync policy, an FSM and a test', () => {
    const files = scaffoldFiles({ name: 'x', fusion: '^1.0.0', linked: false, ranges: {} });
    expect(Object.keys(files).sort()).toEqual([
      '.gitignore',
      'README.md',
      'package.json',
      'src/registry.ts',
      'src/server.ts',
      'test/registry.test.ts',
      'tsconfig.json',
      'vitest.config.ts',
    ]);
    const registry = files['src/registry.ts']!;
    for (const piece of ['.query(', '.action(', '.mutation(', 'f.fsm(', 'policies:', '.bindState('])
      expect(registry).toContain(piece);
    expect(files['test/registry.test.ts']).toContain("from 'mcp-fusion/testing'");
  });

  it("keys the scaffold's data by the workflow instance, never a shared default, and spells its texts right", () => {
    const files = scaffoldFiles({ name: 'x', fusion: '^1.0.0', linked: false, ranges: {} });
    const registry = files['src/registry.ts']!;
    expect(registry).toContain('const key = extra.workflow?.key;');
    expect(registry).not.toContain("'default'");
    expect(registry).toContain(
      ".query('tasks.list')\n  .describe('List the tasks of this task list')\n  .bindState('*')",
    );
    expect(Object.values(files).join('\n')).not.toMatch(/taskss|per-session task list/);
  });

  it('depends on this checkout, else the published version, else this installed copy with a note naming --fusion', async () => {
    const installed: PackageInfo = {
      root: '/opt/tools/node_modules/mcp-fusion',
      version: '0.1.0',
      checkout: false,
      ranges: {},
    };
    const asked: string[] = [];
    const lookup = async (name: string, range: string) => (asked.push(`${name}@${range}`), false);
    const cwd = '/home/me';
    expect(await fusionSpec({ ...installed, root: repo, checkout: true }, { cwd, lookup })).toEqual({
      spec: `file:${repo}`,
      linked: true,
      reason: 'this checkout of mcp-fusion, its TypeScript sources',
    });
    expect(await fusionSpec(installed, { given: '^2.0.0', cwd, lookup })).toEqual({
      spec: '^2.0.0',
      linked: false,
      reason: 'as given with --fusion',
    });
    expect(await fusionSpec(installed, { cwd, lookup: async () => true })).toEqual({
      spec: '^0.1.0',
      linked: false,
      reason: 'the version running this command, from the npm registry',
    });
    expect(await fusionSpec(installed, { cwd, lookup })).toEqual({
      spec: 'file:/opt/tools/node_modules/mcp-fusion',
      linked: false,
      reason: 'the copy running this command',
      note: 'mcp-fusion ^0.1.0 is not on the npm registry (or it could not be reached), so the project links the copy running this command: file:/opt/tools/node_modules/mcp-fusion. Keep that directory, or pass --fusion <spec> (a version range, a path to a .tgz from npm pack, or a directory) to choose another.',
    });
    expect(asked).toEqual(['mcp-fusion@^0.1.0']);
  });

  it('makes a local --fusion path absolute, so that the new project can keep it', async () => {
    const installed: PackageInfo = {
      root: '/opt/tools/node_modules/mcp-fusion',
      version: '0.1.0',
      checkout: false,
      ranges: {},
    };
    const cwd = '/home/me/work';
    for (const given of ['./mcp-fusion-0.1.0.tgz', 'mcp-fusion-0.1.0.tgz', 'file:mcp-fusion-0.1.0.tgz']) {
      expect(await fusionSpec(installed, { given, cwd })).toEqual({
        spec: 'file:/home/me/work/mcp-fusion-0.1.0.tgz',
        linked: false,
        reason: 'as given with --fusion',
      });
    }
    expect(await fusionSpec(installed, { given: `file:${repo}/../${repo.split('/').pop()}`, cwd })).toMatchObject({
      spec: `file:${repo}`,
      linked: true,
    });
  });

  it("depends on the tarball npx installed it from (the path in npx's package.json), not on npx's cache", async () => {
    const cache = await tempDir();
    const tarball = join(await tempDir(), 'mcp-fusion-0.1.0.tgz');
    await writeFile(tarball, 'not read');
    await mkdir(join(cache, 'node_modules', 'mcp-fusion'), { recursive: true });
    await writeFile(
      join(cache, 'package.json'),
      JSON.stringify({
        dependencies: { 'mcp-fusion': `file:${relative(cache, tarball)}` },
        _npx: { packages: ['./mcp-fusion-0.1.0.tgz'] },
      }),
    );
    const fromNpx: PackageInfo = {
      root: join(cache, 'node_modules', 'mcp-fusion'),
      version: '0.1.0',
      checkout: false,
      ranges: {},
    };
    const lookup = async (): Promise<boolean> => expect.fail('the registry is not asked when the tarball is known');
    expect(await fusionSpec(fromNpx, { cwd: '/', lookup })).toEqual({
      spec: `file:${tarball}`,
      linked: false,
      reason: 'the tarball this command was installed from',
    });
  });
});
