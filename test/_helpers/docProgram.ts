import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { docProgram } from '../../scripts/docs-typecheck/docPrograms.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** A documented program's server, started as a reader starts it. */
export interface RunningDocProgram {
  /** The URL its `listening on <url>` line names. */
  readonly url: string;
  /** Everything it wrote to stdout and stderr so far. */
  output(): string;
  /** SIGTERM; resolves its exit code. */
  stop(): Promise<number | null>;
}

/**
 * Writes the program a page forms (its `<!-- run: file -->` blocks, as written) into a folder inside the
 * repository (so `mcp-fusion` and the peers resolve as for the docs check), starts `main` with tsx and
 * resolves once it prints `listening on <url>`. The child gets `env` over this process's environment, without
 * the suite's `MCP_FUSION_LOG` (test/setup.ts silences the suite's own servers): it logs as a user's does.
 */
export async function startDocProgram(
  page: string,
  main: string,
  env: Record<string, string>,
): Promise<RunningDocProgram> {
  const dir = join(root, 'test', `.docprogram-${process.pid}-${page.replace(/\W/g, '_')}`);
  mkdirSync(dir, { recursive: true });
  for (const file of docProgram(page, readFileSync(join(root, page), 'utf8')).files)
    writeFileSync(join(dir, file.name), file.source);
  const { MCP_FUSION_LOG: _level, ...inherited } = process.env;
  const child = spawn(process.execPath, ['--import', 'tsx', join(dir, main)], {
    cwd: root,
    env: { ...inherited, NODE_OPTIONS: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  void exit.then(() => rmSync(dir, { recursive: true, force: true }));
  const url = await new Promise<string>((resolve, reject) => {
    const read = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
      const match = /listening on (http:\S+?);?\s/.exec(output);
      if (match !== null) resolve(match[1]!);
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    void exit.then((code) => reject(new Error(`${page} ${main} exited (${code}) before it listened:\n${output}`)));
  });
  return {
    url,
    output: () => output,
    stop: () => {
      child.kill('SIGTERM');
      return exit;
    },
  };
}
