import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFusionApp, initFusion, type FusionApp, type HandlerExtra } from '../../src/index.js';
import { RedisEventBus, RedisFsmStore, RedisSessionStore } from '../../src/redis/index.js';
import { messagesOf, openSession, post, request } from '../_helpers/raw.js';
import { ready, redisClient, uniquePrefix } from './clients.js';
import { modernCall, until } from './helpers.js';
import { startRedisServer, type RedisServer } from './redisServer.js';

/** One handler run, in the order the handlers really ran (across both instances). */
interface Run {
  key: string;
  tool: 'job.start' | 'job.stop';
  n: number;
}

const runs: Run[] = [];
const f = initFusion<{ key: string }>();
const job = f.fsm({
  id: 'job',
  initial: 'idle',
  states: { idle: { on: { START: 'running' } }, running: { on: { STOP: 'idle' } } },
});
const start = f
  .mutation('job.start')
  .bindState('idle', 'START')
  .withNumber('n', 'Call number')
  .handle((input, ctx) => (runs.push({ key: ctx.key, tool: 'job.start', n: input.n }), 'started'));
const stop = f
  .mutation('job.stop')
  .bindState('running', 'STOP')
  .withNumber('n', 'Call number')
  .handle((input, ctx) => (runs.push({ key: ctx.key, tool: 'job.stop', n: input.n }), 'stopped'));
const registry = f.registry().registerAll(start, stop);

type Outcome = 'ok' | 'refused' | 'loadFailure' | 'persistFailure' | 'unavailable' | 'other';

function classify(status: number, message: any): { outcome: Outcome; detail: string } {
  if (status === 503) {
    const text = String(message?.error?.message);
    return { outcome: /the session store is unavailable/.test(text) ? 'unavailable' : 'other', detail: text };
  }
  const result = message?.result;
  if (status !== 200 || result === undefined)
    return { outcome: 'other', detail: `${status} ${JSON.stringify(message)}` };
  const text = (result.content as Array<{ text?: string }>).map((c) => c.text ?? '').join('\n');
  if (result.isError !== true) return { outcome: 'ok', detail: text };
  if (/is not available in the current workflow state/.test(text)) return { outcome: 'refused', detail: text };
  if (/could not run: the workflow state could not be loaded/.test(text))
    return { outcome: 'loadFailure', detail: text };
  if (/ran, but the workflow state could not be saved/.test(text)) return { outcome: 'persistFailure', detail: text };
  return { outcome: 'other', detail: text };
}

describe('Redis outage under load (two instances, a private redis-server stopped and restarted)', () => {
  let redis: RedisServer;
  let dir: string;
  const instances: Array<{ app: FusionApp; bus: RedisEventBus }> = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fusion-redis-'));
    redis = await startRedisServer({ persistDir: dir });
    const prefix = uniquePrefix('fault');
    for (let i = 0; i < 2; i++) {
      const client = await ready(redisClient(redis.url));
      const bus = new RedisEventBus({ publisher: client, subscriber: redisClient(redis.url), prefix: `${prefix}bus:` });
      await bus.ready();
      const app = createFusionApp(registry, {
        fsm: job,
        contextFactory: (extra: HandlerExtra) => ({ key: extra.workflow?.key ?? 'none' }),
        sessionStore: new RedisSessionStore({ client, prefix: `${prefix}session:` }),
        fsmStore: new RedisFsmStore({ client, prefix: `${prefix}fsm:s:`, lockLeaseMs: 1_000 }),
        workflowStore: new RedisFsmStore({ client, prefix: `${prefix}fsm:h:`, lockLeaseMs: 1_000 }),
        bus,
      });
      instances.push({ app, bus });
    }
  }, 30_000);

  afterAll(async () => {
    for (const { app, bus } of instances) await Promise.all([app.close(), bus.close()]);
    await redis.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('fails fast and cleanly while Redis is down, never runs a tool in the wrong state, and recovers by itself', async () => {
    const [a, b] = instances.map((i) => i.app) as [FusionApp, FusionApp];
    const session = await openSession(a);
    const idle = await openSession(a);
    const minted = await modernCall(b, 1, 'job.start', { n: 0 });
    expect(classify(minted.status, minted.message).outcome).toBe('ok');
    const handle = /job_id: (job_[\w-]+)/.exec(JSON.stringify(minted.message.result))![1]!;
    const outcomes = new Map<number, Outcome>([[0, 'ok']]);
    const calls: Array<{ outcome: Outcome; ms: number; phase: string; detail: string }> = [];
    let phase = 'before';
    let n = 1;
    let stopLoad = false;

    const worker = async (w: number): Promise<void> => {
      for (let i = 0; !stopLoad; i++) {
        const id = n++;
        const app = (i + w) % 2 === 0 ? a : b;
        const tool = (i >> 1) % 2 === 0 ? 'job.start' : 'job.stop';
        const started = Date.now();
        const at = phase;
        const answer =
          w % 2 === 0
            ? await request(app, session, id, 'tools/call', { name: tool, arguments: { n: id } })
            : await modernCall(app, id, tool, { n: id, job_id: handle });
        const { outcome, detail } = classify(answer.status, answer.message);
        outcomes.set(id, outcome);
        calls.push({ outcome, ms: Date.now() - started, phase: at, detail });
        // In-process requests that fail at once never leave the microtask queue: let timers run.
        await new Promise((resolve) => setImmediate(resolve));
      }
    };
    const load = Promise.all([0, 1, 2, 3].map(worker));
    // Each phase lasts until the load has made progress in it (answers counted), not for a guessed time.
    const answered = (at: string, outcome?: Outcome) =>
      calls.filter((c) => c.phase === at && (outcome === undefined || c.outcome === outcome)).length;

    await until(() => answered('before', 'ok') >= 20, 10_000, 'successful calls before the outage');
    phase = 'down';
    await redis.stop();
    await until(() => answered('down') >= 8, 10_000, 'answers during the outage');
    // Requests that need the store answer at once: a session not live on B, and a new session.
    const probeStarted = Date.now();
    const restore = await request(b, idle, 9_001, 'tools/list');
    const init = await post(b, {
      jsonrpc: '2.0',
      id: 9_002,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    expect(Date.now() - probeStarted).toBeLessThan(2_000);
    expect(restore.status).toBe(503);
    expect(restore.message.error.message).toMatch(
      /^Service Unavailable: the session store is unavailable \(Redis is not connected \(\w+; .*\)\); nothing was done\. Retry shortly with the same Mcp-Session-Id\.$/,
    );
    expect(restore.message.id).toBe(9_001);
    expect(init.status).toBe(503);
    expect((await messagesOf(init))[0].error.message).toMatch(/Retry initialize shortly\.$/);
    // A session live on this instance: the gated list fails with a JSON-RPC error naming the store.
    const list = await request(a, session, 9_004, 'tools/list');
    expect(list.message.error).toMatchObject({ code: -32603 });
    expect(list.message.error.message).toMatch(/the workflow state store failed to load \(Redis is not connected/);
    await until(() => answered('down', 'loadFailure') >= 4, 10_000, 'store failures during the outage');
    phase = 'restarting';
    await redis.start();
    phase = 'after';
    await until(() => answered('after', 'ok') >= 20, 15_000, 'successful calls after the restart');
    stopLoad = true;
    await load;

    // No hang: every answer came within the command timeout (1 s) plus slack for a loaded machine.
    const slowest = Math.max(...calls.map((c) => c.ms));
    expect(slowest).toBeLessThan(4_000);
    // Every answer is a correct one or a clean failure that says what happened.
    expect(calls.filter((c) => c.outcome === 'other').map((c) => c.detail)).toEqual([]);
    expect(calls.filter((c) => c.phase === 'down' && c.outcome === 'loadFailure').length).toBeGreaterThan(0);
    expect(calls.filter((c) => c.phase === 'after' && c.outcome === 'ok').length).toBeGreaterThan(0);

    // Never a tool run in the wrong state: replay the handler runs in the order they ran. A persist
    // failure may or may not have been applied (the reply can be lost after the write), so the replay
    // keeps both possibilities; any run that no possible state allows is a violation.
    for (const key of new Set(runs.map((r) => r.key))) {
      let possible = new Set(['idle']);
      for (const run of runs.filter((r) => r.key === key)) {
        const from = run.tool === 'job.start' ? 'idle' : 'running';
        const to = run.tool === 'job.start' ? 'running' : 'idle';
        expect(possible.has(from), `${run.tool} #${run.n} ran for ${key} in ${[...possible]}`).toBe(true);
        const outcome = outcomes.get(run.n);
        expect(['ok', 'persistFailure']).toContain(outcome);
        possible = outcome === 'ok' ? new Set([to]) : new Set([from, to]);
      }
    }

    // Service resumed by itself: the same session, the same handle, a restored session and a new one.
    const again = await request(b, idle, 9_003, 'tools/list');
    expect(again.status).toBe(200);
    expect(again.message.result.tools.map((t: { name: string }) => t.name)).toEqual(['job.start']);
    const fresh = await openSession(b);
    expect(fresh).toMatch(/^[0-9a-f-]{36}$/);
    for (const app of [a, b]) {
      const legacy = await request(app, session, 9_100 + n++, 'tools/call', { name: 'job.start', arguments: { n: 0 } });
      expect(['ok', 'refused']).toContain(classify(legacy.status, legacy.message).outcome);
      const modern = await modernCall(app, 9_200 + n++, 'job.stop', { n: 0, job_id: handle });
      expect(['ok', 'refused']).toContain(classify(modern.status, modern.message).outcome);
    }
  }, 30_000);
});
