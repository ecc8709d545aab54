import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { freePort } from '../../bench/freePort.js';
import { v2HttpClient } from '../_helpers/clients.js';
import { launchChromium } from './chromium.js';

const repo = resolve(import.meta.dirname, '../..');
const dir = join(repo, 'test', 'console', `.dev-${randomUUID().slice(0, 8)}`);
const moduleOf = (tools: string[]): string =>
  `import { initFusion } from '../../../src/index.js';\nconst f = initFusion();\nexport const registry = f.registry();\nregistry.registerAll(${tools.map((t) => `f.query('${t}').handle(() => '${t}')`).join(', ')});\n`;

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
  mkdirSync(dir, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Resolves once `check` holds (polled), or fails after `ms`. */
async function until(check: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

it('mcp-fusion dev serves the module with the console, prints both URLs, and reloads on change while the page reconnects', async () => {
  writeFileSync(join(dir, 'registry.ts'), moduleOf(['a.one']));
  const port = await freePort();
  const token = 'dev-test-token';
  const proc = spawn(
    process.execPath,
    ['bin/mcp-fusion.js', 'dev', `test/console/${dir.split('/').at(-1)}/registry.ts`],
    {
      cwd: repo,
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', MCP_FUSION_DEV_TOKEN: token },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  proc.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((done) => proc.once('exit', (code) => done(code)));
  try {
    const consoleUrl = `http://127.0.0.1:${port}/console?token=${token}`;
    await until(async () => (await fetch(consoleUrl)).status === 200, 20_000, 'the dev server');
    expect(stderr).toContain(`MCP endpoint: http://127.0.0.1:${port}/mcp`);
    expect(stderr).toContain(`Console:      ${consoleUrl}`);
    expect((await fetch(`http://127.0.0.1:${port}/console?token=nope`)).status).toBe(403);

    const page = await browser.newPage();
    await page.goto(consoleUrl);
    await page.waitForSelector('#status[data-status="live"]');
    {
      await using client = await v2HttpClient(`http://127.0.0.1:${port}/mcp`);
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['a.one']);
    }

    writeFileSync(join(dir, 'registry.ts'), moduleOf(['a.one', 'a.two']));
    await until(
      async () => {
        await using client = await v2HttpClient(`http://127.0.0.1:${port}/mcp`);
        return (await client.listTools()).tools.length === 2;
      },
      20_000,
      'the reload',
    );
    expect(stderr).toContain('reloaded');
    // The page lived through the restart: it reconnected by itself and shows the new server's calls.
    await page.waitForSelector('#timeline li.marker', { timeout: 5_000 });
    await page.waitForSelector('#status[data-status="live"]');
    {
      await using client = await v2HttpClient(`http://127.0.0.1:${port}/mcp`);
      await client.callTool({ name: 'a.two', arguments: {} });
    }
    await page.waitForSelector('#timeline li[data-tool="a.two"]', { timeout: 1_000 });
    await page.close();
  } finally {
    proc.kill('SIGTERM');
    await exited;
  }
  await until(
    async () =>
      await fetch(`http://127.0.0.1:${port}/console?token=${token}`).then(
        () => false,
        () => true,
      ),
    5_000,
    'the port to close',
  );
}, 60_000);
