import { posix, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { inject } from 'vitest';

const root = resolve(import.meta.dirname, '../..');

/** The bundle test/childBundles.ts made of `module` (a path from the repository root) for this run, if any. */
export function childBundle(module: string): string | undefined {
  return inject('childBundles')?.[posix.normalize(module)];
}

/**
 * The Node arguments that run `module` (a path from the repository root) in a child process: its bundle from
 * test/childBundles.ts (built from the working tree at the start of the run) when there is one, else the
 * TypeScript source through tsx, as `npm start` runs it. Flags for Node (`--max-old-space-size=…`) go before.
 */
export function sourceChild(module: string): string[] {
  const bundle = childBundle(module);
  return bundle !== undefined
    ? ['--enable-source-maps', bundle]
    : ['--import', 'tsx', '--conditions=mcp-fusion-source', module];
}

/**
 * {@link sourceChild} for `child_process.fork()`: the module to fork and the `execArgv` that loads it. The
 * bundle only when every module the child imports by {@link childModuleUrl} (`imports`) is bundled too.
 */
export function forkedChild(
  module: string,
  imports: readonly string[] = [],
): { modulePath: string; execArgv: string[] } {
  const bundle = childBundle(module);
  return bundle !== undefined && imports.every((m) => childBundle(m) !== undefined)
    ? { modulePath: bundle, execArgv: ['--enable-source-maps'] }
    : { modulePath: resolve(root, module), execArgv: ['--import', 'tsx', '--conditions=mcp-fusion-source'] };
}

/** The URL a {@link forkedChild} imports `module` by: its bundle's (sharing the entry's chunks), else the source's. */
export function childModuleUrl(module: string): string {
  return pathToFileURL(childBundle(module) ?? resolve(root, module)).href;
}
