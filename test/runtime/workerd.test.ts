import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type BuildOptions } from 'esbuild';
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registry, workspaceOptions } from '../../examples/workspace/registry.js';
import { texts, v2HttpClient } from '../_helpers/clients.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
/** How a Workers deployment bundles the code (wrangler uses esbuild the same way). */
const bundleOptions: BuildOptions = {
  absWorkingDir: root,
  bundle: true,
  format: 'esm',
  platform: 'neutral',
  conditions: ['mcp-fusion-source', 'workerd', 'worker', 'import'],
  mainFields: ['module', 'main'],
  external: ['node:*'],
  logLevel: 'silent',
};
const handleOf = (result: { content?: unknown }) => /checkout_id: (che_[\w-]+)/.exec(texts(result).join('\n'))?.[1];

/**
 * The workspace example's fetch entry (examples/workspace/worker.ts), bundled the way a Workers deployment
 * bundles it, served by workerd (Cloudflare's runtime) through miniflare, and called by the real SDK client.
 */
describe('createFusionApp on workerd (Cloudflare Workers runtime)', () => {
  let dir: string;
  let mf: Miniflare | undefined;
  let url: URL;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fusion-workerd-'));
    const outfile = join(dir, 'worker.js');
    await build({ entryPoints: [join(root, 'examples/workspace/worker.ts')], ...bundleOptions, outfile });
    // The bundle is given as a module list: miniflare then leaves the lazy `import(name)` of optional peers alone.
    mf = new Miniflare({
      modulesRoot: dir,
      modules: [{ type: 'ESModule', path: outfile, contents: readFileSync(outfile, 'utf8') }],
      compatibilityDate: '2025-09-01',
      compatibilityFlags: ['nodejs_compat'],
      bindings: { ALLOWED_HOSTS: '127.0.0.1,localhost', ALLOWED_ORIGINS: 'app.example' },
    });
    url = new URL('/mcp', await mf.ready);
  }, 20_000);

  afterAll(async () => {
    await mf?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves a legacy (2025-11-25) session: list, call, the FSM gate per session', async () => {
    await using client = await v2HttpClient(url.href, 'legacy');
    expect(client.getProtocolEra()).toBe('legacy');
    expect(client.getServerVersion()?.name).toBe('mcp-fusion-workspace');
    const listed = (await client.listTools()).tools.map((t) => t.name);
    expect(listed).toContain('cart.add_item');
    expect(listed).not.toContain('cart.pay');

    const added = await client.callTool({ name: 'cart.add_item', arguments: { product_id: 'p1' } });
    expect(added.isError).not.toBe(true);
    expect(texts(added).at(-1)).toBe(
      'Workflow "checkout" is now in state "has_items". Next: cart.add_item, cart.checkout, cart.clear, cart.view.',
    );
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('cart.checkout');

    const sprint = await client.callTool({ name: 'sprints.create', arguments: { name: 'on workerd' } });
    expect(texts(sprint).join('\n')).toContain('"name":"on workerd"');
    expect(sprint._meta?.['fusion/invalidation']).toMatchObject({
      patterns: ['sprints.*'],
      causedBy: 'sprints.create',
    });
  });

  it('serves the modern (2026-07-28) era: no session, workflow handles across requests', async () => {
    await using client = await v2HttpClient(url.href, 'auto');
    expect(client.getProtocolEra()).toBe('modern');
    expect((await client.listTools()).tools).toHaveLength(
      registry.runtime(workspaceOptions()).tools.surface.wire.length,
    );
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('platform');

    const added = await client.callTool({ name: 'cart.add_item', arguments: { product_id: 'p1' } });
    const handle = handleOf(added);
    expect(handle).toMatch(/^che_[A-Za-z0-9_-]{22}$/);
    const early = await client.callTool({
      name: 'cart.pay',
      arguments: { payment_method: 'card', checkout_id: handle },
    });
    expect(early.isError).toBe(true);
    await client.callTool({ name: 'cart.checkout', arguments: { checkout_id: handle } });
    const paid = await client.callTool({
      name: 'cart.pay',
      arguments: { payment_method: 'card', checkout_id: handle },
    });
    expect(paid.isError).not.toBe(true);
    expect(texts(paid).at(-1)).toBe('Workflow "checkout" is now in state "confirmed". Next: cart.add_item, cart.view.');

    const prompt = await client.getPrompt({ name: 'plan_sprint', arguments: { goal: 'ship' } });
    expect(JSON.stringify(prompt.messages)).toContain('Plan a sprint to ship.');
  });

  it('lets the app be created at module scope (Workers refuse random values and timers there)', async () => {
    const entry = join(dir, 'global.js');
    await build({
      stdin: {
        contents:
          "import { createFusionApp } from 'mcp-fusion';\nimport { registry, workspaceOptions } from './registry.js';\nconst app = createFusionApp(registry, workspaceOptions());\nexport default { fetch: (request) => app.fetch(request) };\n",
        resolveDir: join(root, 'examples/workspace'),
        loader: 'ts',
      },
      ...bundleOptions,
      outfile: entry,
    });
    const global = new Miniflare({
      modulesRoot: dir,
      modules: [{ type: 'ESModule', path: entry, contents: readFileSync(entry, 'utf8') }],
      compatibilityDate: '2025-09-01',
      compatibilityFlags: ['nodejs_compat'],
    });
    try {
      await using client = await v2HttpClient(new URL('/mcp', await global.ready).href, 'legacy');
      expect((await client.listTools()).tools.map((t) => t.name)).toContain('sprints.create');
    } finally {
      await global.dispose();
    }
  });

  it('keeps the HTTP checks of the app, configured from the worker bindings: a foreign Origin is refused', async () => {
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const foreign = await fetch(url, {
      method: 'POST',
      headers: { ...headers, origin: 'https://evil.example' },
      body: '{}',
    });
    expect(foreign.status).toBe(403);
    const local = await fetch(url, {
      method: 'POST',
      headers: { ...headers, origin: 'http://localhost:5173' },
      body: '{}',
    });
    expect(local.status).toBe(403);
    const allowed = await fetch(url, {
      method: 'POST',
      headers: { ...headers, origin: 'https://app.example' },
      body: '{}',
    });
    expect(allowed.status).toBe(400);
    const malformed = await fetch(url, { method: 'POST', headers, body: '{}' });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ error: { code: -32600 } });
  });
});
