import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { GraphWatcher } from '../../src/cli/dev/GraphWatcher.js';
import { createClock } from '../../src/testing/index.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function setup() {
  const dir = mkdtempSync(join(tmpdir(), 'graph-watcher-'));
  dirs.push(dir);
  const module = join(dir, 'registry.ts');
  const helper = join(dir, 'helper.ts');
  writeFileSync(module, 'export {};\n');
  writeFileSync(helper, 'export const b = 0;\n');
  const clock = createClock();
  const changes: string[] = [];
  const watcher = new GraphWatcher({ clock, debounceMs: 100, onChange: (file) => changes.push(file) });
  watcher.add([module]);
  return { dir, module, helper, clock, changes, watcher };
}

/** Resolves with the burst once the watcher has seen `file` change (the file system reports asynchronously). */
async function seen(watcher: GraphWatcher, file: string): Promise<readonly string[]> {
  const deadline = Date.now() + 10_000;
  while (!watcher.pending.includes(file)) {
    if (Date.now() > deadline) throw new Error(`the watcher did not see ${file} change`);
    await new Promise((r) => setImmediate(r));
  }
  return watcher.pending;
}

it('ignores files beside the module and debounces a burst of saves into one change naming the first file', async () => {
  const { dir, module, helper, clock, changes, watcher } = setup();
  watcher.add([helper]);
  try {
    // Written before the module, in the same folder: their events come first, so they would be pending now.
    writeFileSync(join(dir, 'server.log'), 'a line\n');
    writeFileSync(join(dir, 'sessions.json'), '{}');
    writeFileSync(module, 'export const a = 1;\n');
    expect(await seen(watcher, module)).toEqual([module]);
    clock.advance(99);
    writeFileSync(helper, 'export const b = 2;\n');
    expect(await seen(watcher, helper)).toEqual([module, helper]);
    clock.advance(99); // 198 ms after the first save, 99 after the second: still waiting
    expect(changes).toEqual([]);
    clock.advance(1);
    expect(changes).toEqual([module]);
    expect(watcher.pending).toEqual([]);
  } finally {
    watcher.close();
  }
  expect(clock.pending).toBe(0);
});

it('sees a save by rename (how many editors write) and files added later', async () => {
  const { dir, module, helper, clock, changes, watcher } = setup();
  watcher.add([helper]);
  try {
    writeFileSync(join(dir, '.helper.ts.swp'), 'export const b = 2;\n');
    renameSync(join(dir, '.helper.ts.swp'), helper);
    expect(await seen(watcher, helper)).toEqual([helper]);
    clock.advance(100);
    expect(changes).toEqual([helper]);
    expect(watcher.files).toEqual(new Set([module, helper]));
  } finally {
    watcher.close();
  }
});
