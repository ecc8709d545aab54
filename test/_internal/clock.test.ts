import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);

/** What a process prints when a timer of `clock` is all it has left to do. */
async function lastTimer(clock: 'keepAliveClock' | 'systemClock'): Promise<string> {
  const code = `import('./src/_internal/clock.ts').then((m) => m.${clock}.setTimeout(() => console.log('fired'), 20))`;
  const { stdout } = await run(process.execPath, ['--import', 'tsx', '-e', code], { cwd: process.cwd() });
  return stdout.trim();
}

describe('the real clocks', () => {
  it("keepAliveClock's timer keeps the process alive until it fires; systemClock's never does", async () => {
    const [kept, unref] = await Promise.all([lastTimer('keepAliveClock'), lastTimer('systemClock')]);
    expect(kept).toBe('fired');
    expect(unref).toBe('');
  });
});
