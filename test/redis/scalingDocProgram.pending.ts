// docs/scaling.md's instance, pasted as written: started on the test Redis, it prints its URL and nothing
// else (no ERROR, no WARN), serves a gated workflow, and stops on SIGTERM with exit 0.
// PENDING: rename to scalingDocProgram.test.ts once the bus connects in any order (branch `quiet`, commit
// "RedisEventBus tolerates connecting in any order"); before that fix it fails on the bus's ERROR line only.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { docProgram } from '../../scripts/docs-typecheck/docPrograms.js';
import { texts } from '../_helpers/clients.js';
import { freePort } from './redisServer.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
// Inside the repository, so that `mcp-fusion` and `ioredis` resolve as they do for the docs check.
const dir = join(root, 'test', 'redis', `.snippet-${process.pid}`);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function withoutLogLevel(): NodeJS.ProcessEnv {
  const { MCP_FUSION_LOG: _level, ...env } = process.env;
  return env;
}

describe("docs/scaling.md's instance, as written", () => {
  it('starts with one line (its URL), serves the workflow over Redis, and stops on SIGTERM', async () => {
    const program = docProgram('docs/scaling.md', readFileSync(join(root, 'docs', 'scaling.md'), 'utf8'));
    expect(program.files.map((f) => f.name)).toEqual(['instance.ts']);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'instance.ts'), program.files[0]!.source);
    const port = await freePort();
    const child = spawn(process.execPath, ['--import', 'tsx', join(dir, 'instance.ts')], {
      cwd: root,
      // The log level a user has (test/setup.ts silences the suite's own servers, not this one).
      env: { ...withoutLogLevel(), REDIS_URL: inject('redisUrl'), PORT: String(port), NODE_OPTIONS: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const listening = new Promise<void>((resolve, reject) => {
      const read = (chunk: Buffer): void => {
        output += chunk.toString('utf8');
        if (/listening on \S+\n/.test(output)) resolve();
      };
      child.stdout.on('data', read);
      child.stderr.on('data', read);
      void exit.then((code) => reject(new Error(`the instance exited (${code}) before it listened:\n${output}`)));
    });
    try {
      await listening;
      const client = new Client({ name: 'scaling-snippet', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));
      try {
        const added = await client.callTool({ name: 'cart.add_item', arguments: { product_id: 'p1' } });
        expect(added.isError, texts(added).join('\n')).not.toBe(true);
        expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(['cart.add_item', 'cart.pay']);
      } finally {
        await client.close();
      }
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exit).toBe(0);
    expect(output).toBe(`listening on http://127.0.0.1:${port}/mcp\n`);
  }, 60_000);
});
