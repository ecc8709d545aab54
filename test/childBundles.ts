// Vitest's globalSetup: the modules that tests start as child processes (the example server, the fixture
// servers), bundled once per run with esbuild, from the working tree's sources. A child started with
// `--import tsx` loads and resolves some 300 modules through tsx's loader hooks before it serves: 1.5 to 2 CPU
// seconds per child on the 2-core reference machine, against about 0.5 for one bundle. Tests start these
// children through test/_helpers/sourceChild.ts, which falls back to tsx for a module not bundled here.
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Module path from the repository root (`examples/workspace/main.ts`) → its bundle's absolute path. */
    childBundles: Record<string, string>;
  }
}

const root = resolve(import.meta.dirname, '..');

/** The child modules, as the tests name them (paths from the repository root). */
export const childModules = [
  'examples/workspace/main.ts',
  'test/server/fixtures/drainServer.ts',
  'test/redis/fixtures/taskServer.ts',
  'test/redis/fixtures/dataServer.ts',
  'test/redis/fixtures/taskWorker.ts',
  'test/e2e/fixtures/flood.ts',
  'test/e2e/fixtures/throwingStdio.ts',
  'test/e2e/fixtures/watchedStdio.ts',
  'test/skills/fixtures/switchedSkillStdio.ts',
  'test/abuse/_runtimeChildEntry.ts',
  'test/abuse/fixtures/server.ts',
  'test/abuse/fixtures/failingTool.ts',
  'test/abuse/fixtures/requestState.ts',
  'test/abuse/fixtures/subscriptions.ts',
  'test/abuse/fixtures/taskFlood.ts',
  'test/abuse/fixtures/workflowData.ts',
  'test/abuse/fixtures/workspaceExample.ts',
  'test/abuse/fixtures/rateLimited.ts',
  'test/console/fixtures/bulky.ts',
];

/** Each module's bundle name: flat, so that every bundle and chunk lies in one folder (see below). */
const flat = (module: string): string => module.replace(/\.ts$/, '').replaceAll('/', '__');

export default async function setup(project: TestProject): Promise<() => void> {
  // Outside the repository (nothing to ignore, nothing a check reads), with the repository's node_modules
  // beside the bundles: packages stay external and resolve from there, as they do for the sources.
  const dir = mkdtempSync(join(tmpdir(), 'mcp-fusion-children-'));
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
  // The console serves its page files from `../console/page/` of the module that reads them (as the CommonJS
  // bundle in dist/cjs/ does): every bundle and chunk lies in `bundles/`, so that is `console/page/` here.
  cpSync(join(root, 'src', 'console', 'page'), join(dir, 'console', 'page'), { recursive: true });
  const outdir = join(dir, 'bundles');
  mkdirSync(outdir);
  await build({
    absWorkingDir: root,
    entryPoints: Object.fromEntries(childModules.map((m) => [flat(m), m])),
    outdir,
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunk-[hash]',
    bundle: true,
    // One copy of every source module across the bundles of one process (the runtime child imports its
    // fixture by URL): the shared code lies in chunks, as it lies in one module graph under tsx.
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    // As `--conditions=mcp-fusion-source` gives the tsx children; tsconfig.json's `paths` map `mcp-fusion`.
    conditions: ['mcp-fusion-source'],
    sourcemap: 'linked',
    // A stack needs each frame's file and line, not the file's text: without the sources inside, a map is a
    // fourth of the size, and a child that loads it (`--enable-source-maps`) starts about 0.08 CPU s sooner.
    sourcesContent: false,
    logLevel: 'warning',
    // `sideEffects` in package.json describes dist/; the sources' side-effect imports must stay.
    ignoreAnnotations: true,
  });
  project.provide('childBundles', Object.fromEntries(childModules.map((m) => [m, join(outdir, `${flat(m)}.mjs`)])));
  return () => rmSync(dir, { recursive: true, force: true });
}
