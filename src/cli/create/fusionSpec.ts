import { execFile } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { PackageInfo } from './packageInfo.js';

/** The mcp-fusion dependency a scaffold gets, and why. */
export interface FusionSpec {
  /** The dependency spec written to package.json. */
  readonly spec: string;
  /** True when TypeScript, tsx and vitest must load the linked checkout's sources. */
  readonly linked: boolean;
  /** Why this spec, for the line `create` prints. */
  readonly reason: string;
  /** A warning for the user when the choice may not last (printed on stderr). */
  readonly note?: string;
}

/** Asks the npm registry whether `name@range` resolves to a published version (false when npm or the network fails). */
export type RegistryLookup = (name: string, range: string) => Promise<boolean>;

/** Where `--fusion` was given and how to ask the registry. */
export interface FusionSpecOptions {
  /** `--fusion` as the user typed it. */
  readonly given?: string | undefined;
  /** The directory relative paths in `given` start from. */
  readonly cwd: string;
  readonly lookup?: RegistryLookup;
}

const FUSION_OPTION = '--fusion <spec> (a version range, a path to a .tgz from npm pack, or a directory)';

/**
 * Which mcp-fusion the scaffold depends on, always something the new project can keep: `--fusion` as given
 * (paths made absolute); else this checkout (`file:`, sources linked); else the tarball or directory this copy
 * was installed from (`npx --package ./mcp-fusion-x.tgz`, read from the installing project's package.json);
 * else `^<this version>` when the registry has it; else this installed copy, with a note.
 */
export async function fusionSpec(
  pkg: PackageInfo,
  { given, cwd, lookup = npmHas }: FusionSpecOptions,
): Promise<FusionSpec> {
  if (given !== undefined) {
    const path = localPath(given, cwd);
    if (path === undefined) return { spec: given, linked: false, reason: 'as given with --fusion' };
    return { spec: `file:${path}`, linked: isCheckout(path), reason: 'as given with --fusion' };
  }
  if (pkg.checkout)
    return { spec: `file:${pkg.root}`, linked: true, reason: 'this checkout of mcp-fusion, its TypeScript sources' };
  const source = installedFrom(pkg.root);
  if (source !== undefined) {
    const tarball = statSync(source).isFile();
    return {
      spec: `file:${source}`,
      linked: !tarball && isCheckout(source),
      reason: `the ${tarball ? 'tarball' : 'directory'} this command was installed from`,
    };
  }
  const range = `^${pkg.version}`;
  if (await lookup('mcp-fusion', range))
    return { spec: range, linked: false, reason: 'the version running this command, from the npm registry' };
  const temporary = pkg.root.split(/[\\/]/).includes('_npx');
  return {
    spec: `file:${pkg.root}`,
    linked: false,
    reason: 'the copy running this command',
    note: `mcp-fusion ${range} is not on the npm registry (or it could not be reached), so the project links the copy running this command: file:${pkg.root}${temporary ? ", inside npx's cache, which npm may delete" : ''}. Keep that directory, or pass ${FUSION_OPTION} to choose another.`,
  };
}

/** `given` as an absolute path when it names a local tarball or directory (`./x.tgz`, `file:../fusion`), else undefined. */
function localPath(given: string, cwd: string): string | undefined {
  const path = given.startsWith('file:') ? given.slice('file:'.length) : given;
  const local =
    given.startsWith('file:') || /^(\.{1,2}[\\/]|[\\/]|[A-Za-z]:[\\/])/.test(path) || /\.(tgz|tar\.gz)$/.test(path);
  return local ? resolve(cwd, path) : undefined;
}

/** A git checkout of mcp-fusion (TypeScript sources, not a built package). */
function isCheckout(dir: string): boolean {
  return existsSync(join(dir, 'src', 'index.ts'));
}

/**
 * The tarball or directory the project installing `root` (`<project>/node_modules/mcp-fusion`) asked for, when
 * it asked for a local one: npx writes the `--package` it was given into its cache folder's package.json.
 */
function installedFrom(root: string): string | undefined {
  if (basename(dirname(root)) !== 'node_modules') return undefined;
  const project = dirname(dirname(root));
  let manifest: { dependencies?: Record<string, string>; devDependencies?: Record<string, string> };
  try {
    manifest = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')) as typeof manifest;
  } catch {
    return undefined;
  }
  const spec = manifest.dependencies?.['mcp-fusion'] ?? manifest.devDependencies?.['mcp-fusion'];
  if (spec?.startsWith('file:') !== true) return undefined;
  const path = resolve(project, spec.slice('file:'.length));
  return existsSync(path) ? path : undefined;
}

/** `npm view <name>@<range> version`: true when it names at least one version. */
export function npmHas(name: string, range: string): Promise<boolean> {
  return new Promise((resolvePromise) => {
    execFile(
      'npm',
      ['view', `${name}@${range}`, 'version', '--json'],
      { timeout: 15_000, shell: process.platform === 'win32' },
      (error, stdout) => {
        if (error !== null) return resolvePromise(false);
        const text = stdout.trim();
        resolvePromise(text !== '' && text !== '[]' && text !== '""');
      },
    );
  });
}
