import { afterAll, describe, expect, it } from 'vitest';
import { until } from '../_helpers/waitFor.js';
import { startChildServer } from './_childServer.js';
import { closeAgents, postFrom, probeEvery, type PeerAnswer } from './_peerRequest.js';

afterAll(closeAgents);

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'abuse', version: '1' } },
};
const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' };
const toolsList = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
const SESSIONS = 400;
const session = (sid: string) => ({ 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25' });

/**
 * A legacy session used once from `peer`: initialize, then one real request (which makes it "used"; the
 * `notifications/initialized` step is skipped for speed: the server does not require it), answering with that
 * request's answer and the total time. `complete` adds the notification, as a real client sends it.
 */
async function useSession(
  url: string,
  peer: string,
  complete = false,
): Promise<PeerAnswer & { sid: string | undefined }> {
  const t0 = performance.now();
  const opened = await postFrom(peer, url, initialize);
  const sid = opened.headers['mcp-session-id'] as string | undefined;
  if (opened.status !== 200 || sid === undefined) return { ...opened, sid, ms: performance.now() - t0 };
  if (complete) await postFrom(peer, url, initialized, session(sid));
  const listed = await postFrom(peer, url, toolsList, session(sid));
  return { ...listed, sid, ms: performance.now() - t0 };
}

/**
 * Used legacy sessions from 10 loopback peers filling both session budgets (per peer and per process), in a
 * child process capped at 256 MiB. The budgets are scaled down to 400 per process and 40 per peer (the
 * defaults are 1,000 and 100: the same shape, 2.5 times the work) so that the test stays under 30 s on a
 * busy machine; the idle timeout is shortened to 2 s so that the test can watch the sessions go idle.
 * Limits named: 400 sessions, 5 handshakes at a time; the test ends within 30 s. Stated: the child survives;
 * every flooding request is answered (200, or 404 when its session was closed to make room); a fresh client
 * from another peer completes a handshake and tools/list during the flood, in turn with it (at most
 * {@link MOST_DURING} flooding sessions completed while one probe waits: five per worker, five at a time; a server
 * that served the flood first would complete up to all 400), and after it (its initialize closes the least
 * recently used session of the peer holding the most; the process keeps exactly 400); once the sessions are idle
 * no server is live and the heap is within 10 MiB of its baseline. Counts, not times: a wall-clock bound (1 s)
 * measured the machine.
 */
const MOST_DURING = 25;
describe('abuse: used legacy sessions from 10 peers filling every session budget', () => {
  it('never locks a fresh client out, survives, and returns to its baseline heap once the sessions are idle', async () => {
    await using server = await startChildServer('test/abuse/fixtures/server.ts', {
      ABUSE_OPTIONS: JSON.stringify({
        limits: { maxSessions: SESSIONS, maxSessionsPerPrincipal: SESSIONS / 10 },
        sessionTimeouts: { idleMs: 2_000, sweepIntervalMs: 100 },
      }),
    });
    const baseline = await server.heapMiB();
    let freshPeer = 20;
    const flooded: Array<{ status: number; sid: string | undefined; peer: string }> = [];
    const probe = probeEvery(
      250,
      () => useSession(server.url, `127.0.0.${freshPeer++ % 200}`, true),
      () => flooded.length,
    );
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < SESSIONS) {
        const peer = `127.0.0.${2 + (next++ % 10)}`;
        flooded.push({ ...(await useSession(server.url, peer)), peer });
      }
    };
    await Promise.all(Array.from({ length: 5 }, worker));
    const fresh = await useSession(server.url, '127.0.0.250', true);
    const probes = await probe.stop();
    expect(server.alive(), server.stderr()).toBe(true);
    // A flooding session is answered, or was closed to make room for another client (404: initialize again).
    expect(flooded).toHaveLength(SESSIONS);
    expect(flooded.filter((s) => s.status !== 200 && s.status !== 404)).toEqual([]);
    expect(fresh.status).toBe(200);
    expect(probes.length).toBeGreaterThan(3);
    expect(probes.every((p) => p.status === 200)).toBe(true);
    expect(Math.max(...probes.map((p) => p.during))).toBeLessThanOrEqual(MOST_DURING);
    // The fresh clients took the place of flooding sessions: the process budget stays full, never exceeded.
    expect((await server.sessions()).tracked).toBe(SESSIONS);
    // Past the idle timeout every session releases its server (the records stay, small, until their TTL).
    await until(async () => (await server.sessions()).live === 0, 'servers released', 10_000).catch(() => {});
    const state = await server.sessions();
    const after = await server.heapMiB();
    process.stderr.write(
      `abuse sessions: ${JSON.stringify({ baseline, after, state, probeMaxMs: Math.round(Math.max(...probes.map((p) => p.ms))), mostDuring: Math.max(...probes.map((p) => p.during)), probes: probes.length, fresh: Math.round(fresh.ms) })}\n`,
    );
    expect(state).toEqual({ tracked: SESSIONS, live: 0 });
    expect(after - baseline).toBeLessThan(10);
    expect(server.alive()).toBe(true);
  }, 30_000);
});
