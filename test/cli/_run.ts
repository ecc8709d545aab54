import { resolve } from 'node:path';
import { runCli } from '../../src/cli/runCli.js';

export const repo = resolve(import.meta.dirname, '../..');
export const example = 'examples/workspace/registry.ts';
export const fixture = (name: string): string => `test/cli/fixtures/${name}`;

/** Runs the CLI in-process from the repository root and captures its output. */
export async function cli(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    cwd: repo,
    env: process.env,
  });
  return { code, stdout, stderr };
}
