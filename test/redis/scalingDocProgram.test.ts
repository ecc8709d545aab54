// docs/scaling.md's instance, pasted as written: started on the test Redis, it prints its URL and nothing
// else (no ERROR, no WARN), serves a gated workflow, and stops on SIGTERM with exit 0.
// (test/redis/scalingSnippet.test.ts checks the same wiring in process, with two instances.)
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { describe, expect, inject, it } from 'vitest';
import { texts } from '../_helpers/clients.js';
import { startDocProgram } from '../_helpers/docProgram.js';
import { freePort } from './redisServer.js';

describe("docs/scaling.md's instance, as written", () => {
  it('starts with one line (its URL), serves the workflow over Redis, and stops on SIGTERM', async () => {
    const port = await freePort();
    const program = await startDocProgram('docs/scaling.md', 'instance.ts', {
      REDIS_URL: inject('redisUrl'),
      PORT: String(port),
    });
    let code: number | null = null;
    try {
      const client = new Client({ name: 'scaling-snippet', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(program.url)));
      try {
        const added = await client.callTool({ name: 'cart.add_item', arguments: { product_id: 'p1' } });
        expect(added.isError, texts(added).join('\n')).not.toBe(true);
        expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(['cart.add_item', 'cart.pay']);
      } finally {
        await client.close();
      }
    } finally {
      code = await program.stop();
    }
    expect(code).toBe(0);
    expect(program.output()).toBe(`listening on http://127.0.0.1:${port}/mcp\n`);
  }, 60_000);
});
