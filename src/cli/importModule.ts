import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isServeIntercepted, withServeIntercepted, type ServeIntercepted } from '../_internal/interceptServe.js';
import { CliError } from './CliError.js';

const TYPESCRIPT = new Set(['.ts', '.mts', '.cts', '.tsx']);

/** True when this file runs as TypeScript, i.e. the CLI itself runs from source under a TS loader. */
const runningFromSource = /\.[cm]?ts$/.test(import.meta.url);

let tsxRegistered: Promise<void> | undefined;

/** A user's module as the CLI imported it. */
export interface ImportedModule {
  readonly exports: Record<string, unknown>;
  /** The server the module started while imported (not started: its registry and options were handed over). */
  readonly served: ServeIntercepted | undefined;
  /** What the user should know about the import (printed on stderr). */
  readonly notes: readonly string[];
}

/**
 * Imports a user's module by path, with servers intercepted: a module that calls `startServer()` when
 * imported hands its registry over instead of listening. TypeScript files need a loader: from source one is
 * already active; the built CLI registers `tsx` once, globally, found from the module's project first.
 */
export async function importModule(path: string, cwd: string): Promise<ImportedModule> {
  const file = resolve(cwd, path);
  if (!existsSync(file)) {
    throw new CliError(
      'CLI_MODULE_NOT_FOUND',
      `Cannot find module "${path}" (looked at ${file}). Pass the path of the file that exports your registry, e.g. \`mcp-fusion inspect src/registry.ts\`.`,
      { path: file },
    );
  }
  await prepareLoader(file, cwd);
  const notes: string[] = [];
  let exports: Record<string, unknown> = {};
  let served: ServeIntercepted | undefined;
  try {
    exports = await withServeIntercepted(
      async () => (await import(pathToFileURL(file).href)) as Record<string, unknown>,
    );
  } catch (error) {
    if (!isServeIntercepted(error)) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new CliError(
        'CLI_MODULE_LOAD',
        `Loading "${path}" failed: ${reason}\nThe CLI imports the module as is: it must load without errors.`,
        { path: file },
      );
    }
    served = error;
    notes.push(
      `"${path}" calls ${error.call}() when imported; the CLI read the registry and options given to it and did not start the server. To import the file without serving, serve only when it is run directly: \`if (process.argv[1] === import.meta.filename) await ${error.call}(…)\`, or keep the call in another file.`,
    );
  }
  return { exports, served, notes };
}

/**
 * Registers the loader `path` needs (tsx for TypeScript, when the CLI runs from dist) without importing it,
 * so that a hook registered next (`mcp-fusion dev`'s module graph) wraps it and sees the files it resolves to.
 */
export async function prepareLoader(path: string, cwd: string): Promise<void> {
  const file = resolve(cwd, path);
  if (TYPESCRIPT.has(extname(file)) && !runningFromSource) await registerTsx([dirname(file), cwd]);
}

function registerTsx(from: readonly string[]): Promise<void> {
  tsxRegistered ??= (async () => {
    const api = (await findTsx(from)) ?? (await ownTsx());
    if (api === undefined) {
      throw new CliError(
        'CLI_MISSING_TSX',
        `Loading a TypeScript module needs the package "tsx", found neither in ${[...new Set(from)].join(' nor ')} nor beside mcp-fusion; run \`npm install -D tsx\` in your project, or point the CLI at compiled JavaScript.`,
        { package: 'tsx' },
      );
    }
    try {
      api.register();
    } catch (error) {
      throw new CliError(
        'CLI_TSX_FAILED',
        `tsx is installed but could not register its loader: ${error instanceof Error ? error.message : String(error)}. Update it (\`npm install -D tsx@latest\`, version 4 or later), or point the CLI at compiled JavaScript.`,
        { package: 'tsx' },
      );
    }
  })();
  return tsxRegistered;
}

/** The tsx beside this copy of mcp-fusion, if any. */
async function ownTsx(): Promise<TsxApi | undefined> {
  try {
    return (await import('tsx/esm/api')) as TsxApi;
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_MODULE_NOT_FOUND') return undefined;
    throw new CliError(
      'CLI_TSX_FAILED',
      `tsx is installed beside mcp-fusion but failed to load: ${(error as Error).message}. Reinstall it (\`npm install -D tsx@latest\`), or point the CLI at compiled JavaScript.`,
      { package: 'tsx' },
    );
  }
}

interface TsxApi {
  register(): unknown;
}

/** tsx's loader API (its ES module) as the project of `dirs` resolves it; a tsx that is there but fails to load says why. */
export async function findTsx(dirs: readonly string[]): Promise<TsxApi | undefined> {
  for (const dir of dirs) {
    let manifest: string;
    try {
      manifest = createRequire(join(dir, 'noop.js')).resolve('tsx/package.json');
    } catch {
      continue;
    }
    const exports = (
      JSON.parse(readFileSync(manifest, 'utf8')) as { exports?: Record<string, { import?: { default?: string } }> }
    ).exports;
    const entry = exports?.['./esm/api']?.import?.default;
    if (entry === undefined)
      throw new CliError(
        'CLI_TSX_FAILED',
        `tsx at ${dirname(manifest)} has no loader API ("tsx/esm/api"); install tsx 4 or later (\`npm install -D tsx@latest\`).`,
        { package: 'tsx' },
      );
    try {
      return (await import(pathToFileURL(join(dirname(manifest), entry)).href)) as TsxApi;
    } catch (error) {
      throw new CliError(
        'CLI_TSX_FAILED',
        `tsx is installed (${dirname(manifest)}) but failed to load: ${(error as Error).message}. Reinstall it (\`npm install -D tsx@latest\`), or point the CLI at compiled JavaScript.`,
        { package: 'tsx' },
      );
    }
  }
  return undefined;
}
