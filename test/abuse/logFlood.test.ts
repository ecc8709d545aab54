import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { forkHeapCapped } from './_childServer.js';

const MiB = 2 ** 20;

const meta = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
};

/** One raw 2026-07-28 `tools/call` of `parse` (a hostile client needs no SDK): the HTTP status and body. */
async function parse(url: string, body: string): Promise<{ status: number; body: string }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'parse',
    },
    body,
    // A deadline per call, so a call that never returns fails naming itself rather than timing the test out.
    signal: AbortSignal.timeout(60_000),
  });
  return { status: res.status, body: await res.text() };
}

/**
 * Issue 42's log attack: a failed call logged its whole multi-megabyte message raw, and with a slow stderr
 * reader the write queue grew until the 256 MiB heap ran out (~36 calls; ~7 in this fixture). Bounded: 40 calls, two in flight,
 * whose error message is ~3.9 MiB (with a forged line and an ANSI escape; the caller asks for the padding rather
 * than uploading it), against a child whose stderr pipe is never read. Stated: the child survives, every call gets its error result, its heap stays near its baseline
 * (each line is cut to a few KiB and at most 1 MiB of lines wait), and a fresh SDK client is still served.
 */
describe('abuse: a log reader that never reads', () => {
  it('survives 40 failing calls with ~4 MiB messages and still answers', async () => {
    // The fixture in a child at a 256 MiB heap whose stderr is a pipe nobody ever reads.
    await using child = await forkHeapCapped(new URL('./fixtures/failingTool.ts', import.meta.url), {
      stderr: 'unread',
    });
    const baseline = await child.heapMiB();
    const call = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'parse', arguments: { text: '\n[INFO] forged \u001b[31m', pad: 3.9 * MiB }, _meta: meta },
    });
    const failed: number[] = [];
    for (let i = 0; i < 20; i++) {
      for (const { status, body } of await Promise.all([parse(child.url, call), parse(child.url, call)]))
        if (status === 200 && body.includes('"isError":true')) failed.push(status);
    }
    expect(child.alive()).toBe(true);
    expect(failed).toHaveLength(40);
    expect((await child.heapMiB()) - baseline).toBeLessThan(24);
    const client = new Client({ name: 'after-the-flood', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(child.url)));
    expect(await client.callTool({ name: 'ping', arguments: {} })).toMatchObject({
      content: [{ type: 'text', text: 'pong' }],
    });
    await client.close();
  }, 240_000);
});
