import { execFile } from 'node:child_process';
import type { PackageInfo } from './packageInfo.js';

/** The mcp-fusion dependency a scaffold gets, and why. */
export interface FusionSpec {
  /** The dependency spec written to package.json. */
  readonly spec: string;
  /** True when TypeScript, tsx and vitest must load the linked checkout's sources. */
  readonly linked: boolean;
  /** A line for the user when the choice is not the obvious one (printed on stderr). */
  readonly note?: string;
}

/** Asks the npm registry whether `name@range` resolves to a published version (false when npm or the network fails). */
export type RegistryLookup = (name: string, range: string) => Promise<boolean>;

/**
 * Which mcp-fusion the scaffold depends on: `--fusion` as given; else this checkout (`file:`, sources
 * linked); else `^<this version>` when the registry has it; else this installed copy (`file:<its dir>`),
 * with a note saying so and how to choose another with `--fusion`.
 */
export async function fusionSpec(pkg: PackageInfo, given: string | undefined, lookup: RegistryLookup = npmHas): Promise<FusionSpec> {
  if (given !== undefined) return { spec: given, linked: given.startsWith('file:') };
  if (pkg.checkout) return { spec: `file:${pkg.root}`, linked: true };
  const range = `^${pkg.version}`;
  if (await lookup('mcp-fusion', range)) return { spec: range, linked: false };
  return {
    spec: `file:${pkg.root}`,
    linked: false,
    note: `mcp-fusion ${range} is not on the npm registry (or it could not be reached), so the project links the copy running this command: file:${pkg.root}. Keep that directory, or pass --fusion <spec> (a version range, a path to a .tgz from npm pack, or file:<dir>) to choose another.`,
  };
}

/** `npm view <name>@<range> version`: true when it names at least one version. */
export function npmHas(name: string, range: string): Promise<boolean> {
  return new Promise((resolve) => {
    execFile('npm', ['view', `${name}@${range}`, 'version', '--json'], { timeout: 15_000, shell: process.platform === 'win32' }, (error, stdout) => {
      if (error !== null) return resolve(false);
      const text = stdout.trim();
      resolve(text !== '' && text !== '[]' && text !== '""');
    });
  });
}
