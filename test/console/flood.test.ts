import { describe, expect, it } from 'vitest';
import { clientFrom, fetchFrom, startRuntimeChild } from '../abuse/_runtimeChild.js';
import { CONSOLE_TOKEN } from './fixtures/bulky.js';
import { sseReader } from './stream.js';

const MiB = 2 ** 20;
const meta = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
};

/** One raw 2026-07-28 `tools/call` of `store` from `peer` (no console token, no SDK): the status and body. */
async function store(url: string, peer: string, body: string): Promise<{ status: number; body: string }> {
  const res = await fetchFrom(peer)(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'store',
    },
    body,
    signal: AbortSignal.timeout(60_000),
  });
  return { status: res.status, body: await res.text() };
}

/**
 * Issue 42's console attack: 62 calls of 3.9 MB from a client without the console's token crashed
 * `mcp-fusion dev`, whose console kept every call's whole arguments. Here 80 such calls, two at a time from two
 * peers, to a console-enabled server in a child at a 256 MiB heap: it survives with its heap near its baseline
 * (each event is kept cut to 32 KiB, its size named), every call is answered, and another client is served.
 */
describe('abuse: 80 calls of 3.9 MB to a server with the dev console on', () => {
  it('survives, keeps each event cut, and still answers', async () => {
    await using child = await startRuntimeChild('../../console/fixtures/bulky');
    const baseline = await child.heapMiB();
    const blob = 'a'.repeat(3.9 * MiB);
    const call = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'store', arguments: { blob }, _meta: meta },
    });
    const answered: string[] = [];
    for (let i = 0; i < 40; i++)
      for (const { status, body } of await Promise.all([
        store(child.url, '127.0.0.1', call),
        store(child.url, '127.0.0.2', call),
      ]))
        if (status === 200 && body.includes(`stored ${blob.length} characters`)) answered.push(body);
    expect(child.alive()).toBe(true);
    expect(answered).toHaveLength(80);
    expect((await child.heapMiB()) - baseline).toBeLessThan(32);

    // The console kept them all, cut: what it sends a page is bounded (its 1 MiB snapshot), each call named whole.
    const { port } = new URL(child.url);
    const page = await fetch(`http://127.0.0.1:${port}/console/events?token=${CONSOLE_TOKEN}`);
    const sse = sseReader(page.body!);
    const snapshot = JSON.parse((await sse.next()).data) as { from: number; latest: number };
    let cut = 0;
    let received = 0;
    for (let last = snapshot.from - 1; last < snapshot.latest;) {
      const { data } = await sse.next();
      received += data.length;
      const { events } = JSON.parse(data) as { events: Array<{ seq: number; cut?: { bytes: number } }> };
      cut += events.filter((e) => (e.cut?.bytes ?? 0) > 3.9 * MiB).length;
      last = events.at(-1)!.seq;
    }
    await sse.cancel();
    expect(cut).toBeGreaterThan(20);
    expect(received).toBeLessThan(1.1 * MiB);
    await using other = await clientFrom(child.url, '127.0.0.3');
    expect(await other.callTool({ name: 'ping', arguments: {} })).toMatchObject({
      content: [{ type: 'text', text: 'pong' }],
    });
  }, 240_000);
});
