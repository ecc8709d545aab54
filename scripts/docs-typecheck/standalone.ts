import { resolve } from 'node:path';
import ts from 'typescript';
import type { CodeBlock } from './extractBlocks.js';
import { fragmentMarker, fragmentVerdict, UNKNOWN_NAME_CODES } from './fragments.js';
import { ownDiagnostics } from './ownDiagnostics.js';

/** One block written to a file of its own: the file's path and where the block stands. */
export interface StandaloneBlock {
  readonly page: string;
  readonly block: CodeBlock;
}

/** What checking the blocks alone found: TypeScript's errors of whole blocks, and fragments' wrong markers. */
export interface StandaloneResult {
  readonly diagnostics: ts.Diagnostic[];
  /** `<page>:<line>:1 - <what is wrong with the marker>`. */
  readonly fragmentErrors: string[];
}

/**
 * Type-checks each block (already written to its file, the map's key) as the module a reader gets by pasting
 * it: a block without a fragment marker must compile alone; a fragment may lack names, exactly those its
 * marker lists (its other errors are left to the page-wide check, where the names it lacks are declared).
 */
export function checkStandalone(
  files: ReadonlyMap<string, StandaloneBlock>,
  options: ts.CompilerOptions,
  host?: (options: ts.CompilerOptions) => ts.CompilerHost,
): StandaloneResult {
  const aloneOptions: ts.CompilerOptions = {
    ...options,
    noEmit: true,
    noUnusedLocals: false,
    // A pasted file of a `"type": "module"` project is a module, imports or not.
    moduleDetection: ts.ModuleDetectionKind.Force,
  };
  const alone = ts.createProgram([...files.keys()], aloneOptions, host?.(aloneOptions));
  const unknown = new Map<string, Set<string>>([...files.keys()].map((file) => [file, new Set()]));
  // Only the blocks' files are checked (the package's sources they import are the type check's business).
  const diagnostics = ownDiagnostics(alone, (file) => files.has(file)).filter((d) => {
    const file = d.file === undefined ? undefined : resolve(d.file.fileName);
    if (file === undefined) return true;
    const origin = files.get(file)!;
    if (fragmentMarker(origin.block.code) === undefined) return true;
    const name = /'([^']+)'/.exec(ts.flattenDiagnosticMessageText(d.messageText, '\n'))?.[1];
    if (UNKNOWN_NAME_CODES.has(d.code) && name !== undefined) unknown.get(file)!.add(name);
    return false;
  });
  const fragmentErrors = [...files].flatMap(([file, { page, block }]) => {
    const verdict = fragmentVerdict(block, unknown.get(file)!);
    return verdict === undefined ? [] : [`${page}:${block.line}:1 - ${verdict}`];
  });
  return { diagnostics, fragmentErrors };
}
