// `npm install` in the repository leaves the committed package-lock.json as it is: npm, resolving the lock
// again from package.json (in a copy, without touching node_modules), writes the same bytes.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'mcp-fusion-lock-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('package-lock.json', () => {
  it('is what npm install writes for package.json (regenerate it with `npm install` and commit it)', () => {
    for (const file of ['package.json', 'package-lock.json']) copyFileSync(join(repo, file), join(dir, file));
    execFileSync(
      'npm',
      ['install', '--package-lock-only', '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund'],
      { cwd: dir, stdio: 'ignore', timeout: 120_000 },
    );
    expect(readFileSync(join(dir, 'package-lock.json'), 'utf8')).toBe(
      readFileSync(join(repo, 'package-lock.json'), 'utf8'),
    );
  }, 150_000);
});
