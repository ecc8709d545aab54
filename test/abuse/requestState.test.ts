import { describe, expect, it } from 'vitest';
import { fetchFrom, heapSettles, probeFreshClients, startRuntimeChild } from './_runtimeChild.js';

const meta = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
};
const answers = { ok: { action: 'accept', content: { ok: true } } };

/** One raw 2026-07-28 `tools/call` of `pay` from `peer` (a hostile client needs no SDK). */
async function pay(url: string, peer: string, extra: Record<string, unknown> = {}): Promise<any> {
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': 'tools/call',
    'mcp-name': 'pay',
  };
  const res = await fetchFrom(peer)(url, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'pay', arguments: {}, ...extra, _meta: meta },
    }),
  });
  const text = await res.text();
  const json = text.startsWith('{')
    ? text
    : text
        .split('\n')
        .find((l) => l.startsWith('data: '))!
        .slice(6);
  return JSON.parse(json);
}

/** Both rounds of one multi-round request from `peer`: the final answer; `onAnswer` runs after each round. */
async function twoRounds(url: string, peer: string, onAnswer: () => void = () => {}): Promise<any> {
  const first = await pay(url, peer);
  onAnswer();
  const last = await pay(url, peer, { inputResponses: answers, requestState: first.result.requestState });
  onAnswer();
  return last;
}

/**
 * Attack #13 of the second abuse round: one principal filling the used-requestState set (200 in total, 50 per
 * principal), in a child process capped at 256 MiB. Bounded: 80 multi-round requests from one peer. Stated:
 * that peer is refused past its share with the per-principal reason, another peer's multi-round request is
 * still accepted, a fresh client is served in turn with the flood throughout, and the heap returns near its
 * baseline.
 */
/**
 * The most of the peer's requests answered while one request of the probing client waits for its answer: five
 * (the peer has one in flight; up to 3 measured under a CPU hog), so the server takes a fresh client's requests
 * in turn with the flood, not after it (a server that served the flood first would answer up to all 160). A
 * count, not a time: a wall-clock bound (1 s) measured the machine.
 */
const MOST_DURING = 5;
describe('abuse: one principal filling the used-requestState set', () => {
  it('refuses that principal only', async () => {
    await using child = await startRuntimeChild('requestState');
    expect((await twoRounds(child.url, '127.0.0.3')).result.content[0].text).toBe('paid');
    const baseline = await child.heapMiB();
    let answered = 0;
    const probe = probeFreshClients(child.url, '127.0.0.50', 250, () => answered);
    const answersSeen: string[] = [];
    for (let i = 0; i < 80; i++) {
      const last = await twoRounds(child.url, '127.0.0.2', () => answered++);
      answersSeen.push(
        last.result !== undefined
          ? last.result.content[0].text
          : `${last.error.code}:${last.error.data?.reason}:${last.error.data?.scope}`,
      );
    }
    expect(answersSeen.filter((a) => a === 'paid')).toHaveLength(50);
    expect(answersSeen.filter((a) => a === '-32602:request_state_budget:principal')).toHaveLength(30);
    const other = await twoRounds(child.url, '127.0.0.3');
    expect(other.result.content[0].text).toBe('paid');
    const served = await probe.stop();
    expect(child.alive(), child.log()).toBe(true);
    expect(served.failures).toEqual([]);
    expect(served.rounds).toBeGreaterThanOrEqual(2);
    expect(served.mostDuring).toBeLessThanOrEqual(MOST_DURING);
    const settled = await heapSettles(child, baseline, 3, 10_000);
    process.stderr.write(
      `abuse request state (MiB): ${JSON.stringify({ baseline, settled, slowestMs: served.slowestMs, mostDuring: served.mostDuring, rounds: served.rounds })}\n`,
    );
    expect(settled - baseline).toBeLessThan(3);
  }, 60_000);
});
