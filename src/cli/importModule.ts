import { existsSync } from 'node:fs';
import { extname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CliError } from './CliError.js';

const TYPESCRIPT = new Set(['.ts', '.mts', '.cts', '.tsx']);

/** True when this file runs as TypeScript, i.e. the CLI itself runs from source under a TS loader. */
const runningFromSource = /\.[cm]?ts$/.test(import.meta.url);

let tsxRegistered: Promise<void> | undefined;

/**
 * Imports a user's module by path. TypeScript files need a loader: from source one is already active;
 * the built CLI registers `tsx` once, globally, so the module and the CLI share one copy of mcp-fusion.
 */
export async function importModule(path: string, cwd: string): Promise<Record<string, unknown>> {
  const file = resolve(cwd, path);
  if (!existsSync(file)) {
    throw new CliError('CLI_MODULE_NOT_FOUND', `Cannot find module "${path}" (looked at ${file}). Pass the path of the file that exports your registry, e.g. \`mcp-fusion inspect src/registry.ts\`.`, { path: file });
  }
  if (TYPESCRIPT.has(extname(file)) && !runningFromSource) await registerTsx();
  try {
    return (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new CliError('CLI_MODULE_LOAD', `Loading "${path}" failed: ${reason}\nThe CLI imports the module as is: it must load without errors, and should not start a server when imported (keep startServer() in another file).`, { path: file });
  }
}

function registerTsx(): Promise<void> {
  tsxRegistered ??= (async () => {
    let api: { register: () => unknown };
    try {
      api = (await import('tsx/esm/api')) as typeof api;
    } catch {
      throw new CliError('CLI_MISSING_TSX', 'Loading a TypeScript module needs the package "tsx"; run `npm install -D tsx`, or point the CLI at compiled JavaScript.', { package: 'tsx' });
    }
    api.register();
  })();
  return tsxRegistered;
}
