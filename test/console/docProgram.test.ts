// docs/console.md's program as written (registry.ts, and server.ts with `devConsole: true`): it prints the
// endpoint and the console's URL, the console page answers on it, and the registry serves its workflow.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { texts } from '../_helpers/clients.js';
import { startDocProgram } from '../_helpers/docProgram.js';
import { freePort } from '../_helpers/freePort.js';

describe("docs/console.md's server.ts, as written", () => {
  it('prints its endpoint and console URLs, serves the console page and the gated workflow', async () => {
    const port = await freePort();
    const program = await startDocProgram('docs/console.md', 'server.ts', { PORT: String(port) });
    try {
      expect(program.url).toBe(`http://127.0.0.1:${port}/mcp`);
      const consoleUrl = /console: (http:\S+)/.exec(program.output())?.[1];
      expect(consoleUrl).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/console\\?token=`));
      const page = await fetch(consoleUrl!);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/text\/html/);
      await page.body?.cancel();
      const client = new Client({ name: 'console-doc', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(program.url)));
      try {
        expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['cart.add_item']);
        const added = await client.callTool({ name: 'cart.add_item', arguments: { product_id: 'p1' } });
        expect(added.isError, texts(added).join('\n')).not.toBe(true);
        expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(['cart.add_item', 'cart.pay']);
      } finally {
        await client.close();
      }
    } finally {
      await program.stop();
    }
  }, 60_000);
});
