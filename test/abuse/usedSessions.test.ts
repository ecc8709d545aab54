import { afterAll, describe, expect, it } from 'vitest';
import { startChildServer } from './_childServer.js';
import { closeAgents, postFrom, probeEvery, type PeerAnswer } from './_peerRequest.js';

afterAll(closeAgents);

const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'abuse', version: '1' } } };
const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' };
const toolsList = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
const session = (sid: string) => ({ 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25' });

/** A whole legacy handshake and one real request from `peer`: the answer of that request and the total time. */
async function useSession(url: string, peer: string): Promise<PeerAnswer & { sid: string | undefined }> {
  const t0 = performance.now();
  const opened = await postFrom(peer, url, initialize);
  const sid = opened.headers['mcp-session-id'] as string | undefined;
  if (opened.status !== 200 || sid === undefined) return { ...opened, sid, ms: performance.now() - t0 };
  await postFrom(peer, url, initialized, session(sid));
  const listed = await postFrom(peer, url, toolsList, session(sid));
  return { ...listed, sid, ms: performance.now() - t0 };
}

/**
 * 1,000 used legacy sessions from 10 loopback peers (100 each: the per-peer budget; together the process
 * budget), against the default budgets in a child process capped at 256 MiB; the idle timeout shortened to
 * 2 s so that the test can watch the sessions go idle. Limits named: 1,000 sessions, 10 handshakes at a
 * time; the test ends within 30 s. Stated: the child survives; every flooding request is answered (200, or 404
 * when its session was closed to make room); a fresh client from another peer completes
 * a handshake and tools/list within 1 s during and after the flood (its initialize closes the least recently
 * used session of the peer holding the most, which then gets 404; the process keeps exactly 1,000); once the sessions are idle no server is live and the
 * heap is within 10 MiB of its baseline.
 */
describe('abuse: 1,000 used legacy sessions from 10 peers', () => {
  it('never locks a fresh client out, survives, and returns to its baseline heap once the sessions are idle', async () => {
    await using server = await startChildServer('test/abuse/fixtures/server.ts', { ABUSE_OPTIONS: JSON.stringify({ sessionTimeouts: { idleMs: 2_000, sweepIntervalMs: 100 } }) });
    const baseline = await server.heapMiB();
    let freshPeer = 20;
    const probe = probeEvery(200, () => useSession(server.url, `127.0.0.${freshPeer++ % 200}`));
    const flooded: Array<{ status: number; sid: string | undefined; peer: string }> = [];
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < 1_000) {
        const peer = `127.0.0.${2 + (next++ % 10)}`;
        flooded.push({ ...(await useSession(server.url, peer)), peer });
      }
    };
    await Promise.all(Array.from({ length: 10 }, worker));
    const fresh = await useSession(server.url, '127.0.0.250');
    const probes = await probe.stop();
    expect(server.alive(), server.stderr()).toBe(true);
    // A flooding session is answered, or was closed to make room for another client (404: initialize again).
    expect(flooded).toHaveLength(1_000);
    expect(flooded.filter((s) => s.status !== 200 && s.status !== 404)).toEqual([]);
    expect([fresh.status, fresh.ms < 1_000]).toEqual([200, true]);
    expect(probes.length).toBeGreaterThan(3);
    expect(probes.every((p) => p.status === 200)).toBe(true);
    expect(Math.max(...probes.map((p) => p.ms))).toBeLessThan(1_000);
    // The fresh clients took the place of flooding sessions: the process budget stays full, never exceeded.
    expect((await server.sessions()).tracked).toBe(1_000);
    // Past the idle timeout every session releases its server (the records stay, small, until their TTL).
    const deadline = Date.now() + 10_000;
    while ((await server.sessions()).live > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 250));
    const state = await server.sessions();
    const after = await server.heapMiB();
    process.stderr.write(`abuse sessions: ${JSON.stringify({ baseline, after, state, probeMaxMs: Math.round(Math.max(...probes.map((p) => p.ms))), probes: probes.length, fresh: Math.round(fresh.ms) })}\n`);
    expect(state).toEqual({ tracked: 1_000, live: 0 });
    expect(after - baseline).toBeLessThan(10);
    expect(server.alive()).toBe(true);
  }, 30_000);
});
