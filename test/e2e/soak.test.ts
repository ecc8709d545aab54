import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sourceChild } from '../_helpers/sourceChild.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The flood of #20 (one local client opening sessions with maximal initialize params until the process died)
 * against the default budgets, in a child process whose heap is capped at 256 MiB so that the ceiling is real.
 * Limits named: 3,000 sessions, 50 at a time, from 40 peers, params just under 8 KiB of tiny keys; the child
 * must finish within 60 s. Stated: live heap peak (after a forced collection, sampled through the flood) under
 * 128 MiB, half the ceiling (1,000 tracked sessions of maximal params: about 110 MiB measured), a fresh client served (handshake and tools/list)
 * within 3 s in the middle of the flood, and after the timeouts no live session and the heap within 15 MiB of
 * its baseline.
 */
describe('soak: a flood of maximal legacy sessions', () => {
  it('stays under its memory ceiling, keeps serving a fresh client and returns to baseline', async () => {
    const child = spawn(
      process.execPath,
      ['--max-old-space-size=256', '--expose-gc', ...sourceChild('test/e2e/fixtures/flood.ts')],
      {
        cwd: root,
        env: { ...process.env, FLOOD_SESSIONS: '3000' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => void (out += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => void (err += c.toString('utf8')));
    const code = await new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
      child.once('exit', (c) => {
        clearTimeout(timer);
        resolve(c);
      });
    });
    expect(code, err.slice(-2_000)).toBe(0);
    const report = JSON.parse(out.trim().split('\n').at(-1)!);
    process.stderr.write(`soak flood: ${JSON.stringify(report)}\n`);
    expect(report.statuses).toEqual({ 200: 3_000 });
    expect(report.atEnd.tracked).toBeLessThanOrEqual(1_000);
    expect(report.atEnd.live).toBeLessThanOrEqual(report.atEnd.tracked);
    // The live heap, not heapUsed: the garbage not yet collected depends on the CPU the collector gets (a
    // heapUsed peak of 130 and of 171 MiB in two runs of one tree; 118 and 109 live in a loaded run).
    expect(report.heapMiB.peak).toBeLessThan(128);
    expect(report.freshStatus).toBe(200);
    expect(report.freshMs).toBeLessThan(3_000);
    expect(report.afterTimeouts.live).toBe(0);
    expect(report.afterTimeouts.tracked).toBeLessThanOrEqual(1);
    expect(report.heapMiB.after - report.heapMiB.baseline).toBeLessThan(15);
  }, 90_000);
});
