import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** What `create` needs to know about the mcp-fusion package running it. */
export interface PackageInfo {
  /** Real path of the package root. */
  readonly root: string;
  readonly version: string;
  /** True in a git checkout (not under node_modules): the scaffold then links it with `file:`. */
  readonly checkout: boolean;
  /** Version ranges of the packages a scaffold uses, taken from our own manifest so they stay in step. */
  readonly ranges: Readonly<Record<string, string>>;
}

interface Manifest {
  name?: string;
  version?: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

/** Finds the mcp-fusion package root above this file (src/cli/create or dist/cli/create). */
export function packageInfo(from: string = fileURLToPath(import.meta.url)): PackageInfo {
  let dir = dirname(from);
  for (;;) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const manifest = JSON.parse(readFileSync(file, 'utf8')) as Manifest;
      if (manifest.name === 'mcp-fusion') return describe(realpathSync(dir), manifest);
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`mcp-fusion's package.json was not found above ${from}.`);
    dir = parent;
  }
}

function describe(root: string, manifest: Manifest): PackageInfo {
  return {
    root,
    version: manifest.version ?? '0.0.0',
    checkout: !root.split(sep).includes('node_modules') && existsSync(join(root, 'src', 'index.ts')),
    ranges: { ...manifest.peerDependencies, ...manifest.devDependencies, ...manifest.dependencies },
  };
}
