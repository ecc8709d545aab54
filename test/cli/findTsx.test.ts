import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findTsx } from '../../src/cli/importModule.js';
import { repo } from './_run.js';

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

/** A project folder whose node_modules/tsx has this package.json and these files. */
async function projectWithTsx(manifest: object, files: Record<string, string> = {}): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'fusion-tsx-'));
  dirs.push(dir);
  const tsx = join(dir, 'node_modules', 'tsx');
  await mkdir(join(tsx, 'dist'), { recursive: true });
  await writeFile(join(tsx, 'package.json'), JSON.stringify({ name: 'tsx', version: '4.0.0', ...manifest }));
  for (const [name, text] of Object.entries(files)) await writeFile(join(tsx, name), text);
  return dir;
}

describe('finding tsx for a TypeScript module', () => {
  it("takes the loader API of the module's own project (the first folder that has tsx)", async () => {
    const empty = await mkdtemp(join(tmpdir(), 'fusion-no-tsx-'));
    dirs.push(empty);
    const api = await findTsx([empty, repo]);
    expect(typeof api?.register).toBe('function');
  });

  it('is undefined where no folder has tsx (the CLI then tries its own, then asks to install it)', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'fusion-no-tsx-'));
    dirs.push(empty);
    expect(await findTsx([empty])).toBeUndefined();
  });

  it('names the real cause when tsx is there but its loader fails to load', async () => {
    const dir = await projectWithTsx(
      {
        type: 'module',
        exports: { './package.json': './package.json', './esm/api': { import: { default: './dist/api.mjs' } } },
      },
      { 'dist/api.mjs': "throw new Error('compiled for another Node');\n" },
    );
    await expect(findTsx([dir])).rejects.toThrow(
      `tsx is installed (${join(dir, 'node_modules', 'tsx')}) but failed to load: compiled for another Node. Reinstall it (\`npm install -D tsx@latest\`), or point the CLI at compiled JavaScript.`,
    );
  });

  it('says when the installed tsx is too old to have a loader API', async () => {
    const dir = await projectWithTsx({ exports: { './package.json': './package.json', '.': './dist/cli.js' } });
    await expect(findTsx([dir])).rejects.toThrow(
      `tsx at ${join(dir, 'node_modules', 'tsx')} has no loader API ("tsx/esm/api"); install tsx 4 or later (\`npm install -D tsx@latest\`).`,
    );
  });
});
