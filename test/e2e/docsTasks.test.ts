import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { docProgram } from '../../scripts/docs-typecheck/docPrograms.js';
import { allowConsole } from '../_helpers/console.js';

const root = resolve(import.meta.dirname, '../..');
const program = docProgram('docs/tasks.md', readFileSync(join(root, 'docs', 'tasks.md'), 'utf8'));
// Inside test/, so that vitest resolves `mcp-fusion` to the sources as it does for the tests.
const dir = join(root, 'test', `.docs-tasks-${process.pid}`);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the page's program `name` in this process, as written, and resolves what it printed with console.log. */
async function run(name: string): Promise<string[]> {
  const source = program.files.find((file) => file.name === name)?.source;
  if (source === undefined) throw new Error(`docs/tasks.md has no <!-- run: ${name} --> program`);
  mkdirSync(dir, { recursive: true });
  const path = join(dir, name);
  writeFileSync(path, source);
  allowConsole();
  const log = vi.spyOn(console, 'log').mockImplementation(() => {});
  await import(path);
  return log.mock.calls.map((args) => args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' '));
}

describe('docs/tasks.md, its client and testing programs as pasted', () => {
  it('the 2025-11-25 client recipe follows a task to its result, then cancels one', async () => {
    const printed = await run('tasks-client-legacy.ts');
    expect(printed.at(-3)).toBe('completed page 3 of 3');
    expect(JSON.parse(printed.at(-2)!)).toMatchObject({ content: [{ type: 'text', text: 'Report of S1 ready.' }] });
    expect(printed.at(-1)).toBe('cancelled');
  });

  it('the 2026-07-28 client recipe follows a task to its result, then cancels one', async () => {
    const printed = await run('tasks-client-modern.ts');
    expect(printed.at(-3)).toBe('completed page 3 of 3');
    expect(JSON.parse(printed.at(-2)!)).toEqual({
      resultType: 'complete',
      content: [{ type: 'text', text: 'Report of S1 ready.' }],
    });
    expect(printed.at(-1)).toBe('cancelled');
  });

  it('the testing program passes its checks in both eras', async () => {
    expect(await run('tasks-testing.ts')).toEqual(['tasks: both eras pass']);
  });
});
