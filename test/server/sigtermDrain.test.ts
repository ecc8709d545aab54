import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { texts } from '../_helpers/clients.js';
import { spawnServer, type ServerProcess } from './_serverProcess.js';

type Outcome =
  | { kind: 'ok'; tag: string; text: string; endedAt: number }
  | { kind: '503'; retryAfter: string | null; message: string }
  | { kind: 'refused' }
  | { kind: 'failed'; error: string };

type Answer = { status: number; retryAfter: string | null; message: string };

/** An SDK client whose transport remembers the last HTTP answer it got (status, Retry-After, JSON-RPC message). */
async function recordingClient(url: string, mode: 'legacy' | 'auto') {
  const seen: { last?: Answer | undefined } = {};
  // The legacy GET streams this client opened, and whether each ended cleanly (its body finished, not cut).
  const streams: Array<{ ended: boolean }> = [];
  const client = new Client(
    { name: 'load', version: '1.0.0' },
    mode === 'auto' ? { versionNegotiation: { mode: 'auto' } } : {},
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        const message =
          response.status === 503
            ? ((await response.clone().json()) as { error: { message: string } }).error.message
            : '';
        if ((init?.method ?? 'GET') === 'POST')
          seen.last = { status: response.status, retryAfter: response.headers.get('retry-after'), message };
        if ((init?.method ?? 'GET') !== 'GET' || !response.ok || response.body === null) return response;
        const stream = { ended: false };
        streams.push(stream);
        const body = response.body.pipeThrough(new TransformStream({ flush: () => void (stream.ended = true) }));
        return new Response(body, { status: response.status, headers: response.headers });
      },
    }),
  );
  /** Calls work.sleep and classifies the outcome as the caller sees it. */
  const call = async (ms: number, tag: string): Promise<Outcome> => {
    seen.last = undefined;
    try {
      const result = await client.callTool({ name: 'work.sleep', arguments: { ms, tag } });
      return { kind: 'ok', tag, text: texts(result).join('\n'), endedAt: performance.now() };
    } catch (error) {
      const last = seen.last as Answer | undefined;
      if (last?.status === 503) return { kind: '503', retryAfter: last.retryAfter, message: last.message };
      const cause = (error as { cause?: { code?: string } }).cause;
      if (last === undefined && cause?.code === 'ECONNREFUSED') return { kind: 'refused' };
      return { kind: 'failed', error: `${String(error)} (${JSON.stringify(last)}, cause ${String(cause?.code)})` };
    }
  };
  return Object.assign(client, { call, streams });
}

/** `workers` clients calling in a loop until each gets its first refusal; resolves with every outcome. */
function load(clients: Array<Awaited<ReturnType<typeof recordingClient>>>, started: () => void) {
  let count = 0;
  return Promise.all(
    clients.map(async (client, w) => {
      const outcomes: Array<Outcome & { startedAt: number }> = [];
      for (let i = 0; ; i++) {
        const startedAt = performance.now();
        if (++count === clients.length * 2) started();
        const outcome = await client.call(150 + 60 * w, `${w}.${i}`);
        outcomes.push({ ...outcome, startedAt });
        if (outcome.kind !== 'ok') return outcomes;
      }
    }),
  );
}

describe('SIGTERM under load', () => {
  it('finishes the calls under way, answers new ones 503 with Retry-After, ends listen and GET streams cleanly and exits 0 within drainMs', async () => {
    await using srv: ServerProcess = await spawnServer('test/server/fixtures/drainServer.ts', { DRAIN_MS: '5000' });
    const clients = await Promise.all(
      [0, 1, 2, 3, 4, 5, 6, 7].map((i) => recordingClient(srv.url, i % 2 === 0 ? 'legacy' : 'auto')),
    );
    const listener = await recordingClient(srv.url, 'auto');
    const subscription = await listener.listen({ toolsListChanged: true });
    let signalledAt = 0;
    let going!: () => void;
    const loaded = new Promise<void>((resolve) => (going = resolve));
    const running = load(clients, going);
    // Every worker is on its second call: all of them have a call running.
    await loaded;
    signalledAt = srv.signal('SIGTERM');
    const outcomes = (await running).flat();
    const exit = await srv.exited;

    expect(exit.code, srv.stderr()).toBe(0);
    expect(exit.at - signalledAt).toBeLessThan(5_000);
    expect(outcomes.filter((o) => o.kind === 'failed')).toEqual([]);
    const ok = outcomes.filter((o) => o.kind === 'ok');
    // Each answer is its own call's: nothing lost, nothing crossed.
    for (const o of ok) expect(o.text).toBe(`done ${o.tag}`);
    const drained = ok.filter((o) => o.startedAt < signalledAt && o.endedAt > signalledAt);
    expect(drained.length).toBeGreaterThanOrEqual(4);
    const refused = outcomes.filter((o) => o.kind === '503');
    expect(refused.length).toBeGreaterThanOrEqual(1);
    for (const o of refused) {
      expect(o.retryAfter).toBe('1');
      expect(o.message).toMatch(/shutting down and did not run the request\. Send it again in 1 s/);
    }
    // Every worker ends on a 503 (or, after the port closed, a refused connection): none on anything else.
    expect(outcomes.filter((o) => o.kind !== 'ok')).toHaveLength(clients.length);
    expect(await subscription.closed).toBe('graceful');
    // Each legacy client's GET stream ended cleanly (the SDK client then reopens it, elsewhere behind a balancer).
    const legacyStreams = clients.filter((_, i) => i % 2 === 0).map((c) => c.streams[0]);
    expect(legacyStreams.map((st) => st?.ended)).toEqual([true, true, true, true]);
    await Promise.allSettled([...clients, listener].map((c) => c.close()));
  }, 30_000);

  it('aborts a call still running at the deadline, answers it, and exits within drainMs plus a second', async () => {
    await using srv = await spawnServer('test/server/fixtures/drainServer.ts', { DRAIN_MS: '800' });
    const client = await recordingClient(srv.url, 'legacy');
    const slow = client.call(20_000, 'slow');
    // The call is running once a second client's call after it has been answered (same server, in order).
    const other = await recordingClient(srv.url, 'auto');
    expect((await other.call(1, 'probe')).kind).toBe('ok');
    const signalledAt = srv.signal('SIGTERM');
    const outcome = await slow;
    const exit = await srv.exited;
    expect(exit.code, srv.stderr()).toBe(0);
    expect(exit.at - signalledAt).toBeLessThan(800 + 1_500);
    expect(outcome.kind).toBe('ok');
    expect(outcome.kind === 'ok' && outcome.text).toMatch(/shutting down|aborted/);
    await Promise.allSettled([client.close(), other.close()]);
  }, 30_000);
});
