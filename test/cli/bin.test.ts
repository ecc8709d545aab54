import { execFile, spawn } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { example, repo } from './_run.js';

const run = promisify(execFile);
const bin = join(repo, 'bin', 'mcp-fusion.js');

describe('bin/mcp-fusion.js from a checkout', () => {
  it('runs the TypeScript sources without a build', { timeout: 30_000 }, async () => {
    const { stdout } = await run(process.execPath, [bin, '--help'], { cwd: repo });
    for (const command of ['create', 'inspect', 'diagram', 'lint'])
      expect(stdout).toContain(`  ${command} [options] <`);
  });

  it('loads a TypeScript module that imports mcp-fusion by name', { timeout: 30_000 }, async () => {
    const { stdout } = await run(process.execPath, [bin, 'inspect', example, '--state', 'payment', '--json'], {
      cwd: repo,
    });
    expect(JSON.parse(stdout).tools.map((t: { name: string }) => t.name)).toContain('cart.pay');
  });

  it(
    'survives a reader that closed the pipe (`mcp-fusion --help | head -1`): no EPIPE, exit 0',
    { timeout: 30_000 },
    async () => {
      const child = spawn(process.execPath, [bin, '--help'], { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] });
      // Closed before the command writes its help (it starts in about a second), as `head` closes after a line.
      child.stdout.destroy();
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
      expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    },
  );

  it('exits 1 when lint finds problems', { timeout: 30_000 }, async () => {
    const failed = await run(process.execPath, [bin, 'lint', 'test/cli/fixtures/broken-registry.ts'], {
      cwd: repo,
    }).catch((error: { code: number; stdout: string }) => error);
    expect('code' in failed && failed.code).toBe(1);
  });
});
