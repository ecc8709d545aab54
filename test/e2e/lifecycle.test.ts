import { describe, expect, it } from 'vitest';
import { registry, workspaceOptions } from '../../examples/workspace/registry.js';
import { createFusionApp, MemorySessionStore, type SessionEvent } from '../../src/index.js';
import { openSession, post, request } from '../_helpers/raw.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const toolNames = (message: any): string[] => message.result.tools.map((t: { name: string }) => t.name);

describe('legacy connection and session lifecycle', () => {
  it('ends a session whose client never completes the handshake', async () => {
    const events: SessionEvent[] = [];
    const app = createFusionApp(registry, { ...workspaceOptions(), sessionTimeouts: { initializeMs: 40, sweepIntervalMs: 10 }, onSessionEvent: (e) => events.push(e) });
    const sid = await openSession(app, false);
    await sleep(120);
    const after = await post(app, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, sid);
    expect(after.status).toBe(404);
    expect(events.map((e) => `${e.from ?? '-'}>${e.to}:${e.reason}`)).toEqual(['->created:initialize', 'created>closed:handshake-timeout', 'closed>destroyed:handshake-timeout']);
    await app.close();
  });

  it('destroys a session never used after its handshake, reporting it from the created phase', async () => {
    const events: SessionEvent[] = [];
    const app = createFusionApp(registry, { ...workspaceOptions(), sessionTimeouts: { neverUsedMs: 40, sweepIntervalMs: 10 }, onSessionEvent: (e) => events.push(e) });
    const sid = await openSession(app);
    await sleep(120);
    expect((await post(app, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, sid)).status).toBe(404);
    expect(events.filter((e) => e.id === sid).map((e) => `${e.from ?? '-'}>${e.to}:${e.reason}`).slice(-2)).toEqual(['created>closed:never-used', 'closed>destroyed:never-used']);
    await app.close();
  });

  it('turns an unused session idle, releases its server, and resumes it with its workflow state', async () => {
    const events: SessionEvent[] = [];
    const app = createFusionApp(registry, { ...workspaceOptions(), sessionTimeouts: { idleMs: 60, sweepIntervalMs: 10 }, onSessionEvent: (e) => events.push(e) });
    const sid = await openSession(app);
    const added = await request(app, sid, 1, 'tools/call', { name: 'cart.add_item', arguments: { product_id: 'p1' } });
    expect(added.message.result.isError).toBeUndefined();
    await sleep(150);
    expect(app.sessions.has(sid)).toBe(false);
    expect(app.sessions.manager.get(sid)?.phase).toBe('idle');
    const listed = await request(app, sid, 2, 'tools/list');
    expect(listed.status).toBe(200);
    expect(toolNames(listed.message)).toContain('cart.checkout');
    expect(app.sessions.has(sid)).toBe(true);
    expect(events.map((e) => `${e.to}:${e.reason}`)).toEqual(['created:initialize', 'active:first-use', 'idle:idle', 'active:resume']);
    await app.close();
  });

  it('answers 404 once the absolute TTL has passed, reporting the end from the phase the session was in', async () => {
    const events: SessionEvent[] = [];
    const app = createFusionApp(registry, { ...workspaceOptions(), sessionTimeouts: { ttlMs: 80, sweepIntervalMs: 10 }, onSessionEvent: (e) => events.push(e) });
    const sid = await openSession(app);
    expect((await request(app, sid, 1, 'tools/list')).status).toBe(200);
    await sleep(160);
    expect((await post(app, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, sid)).status).toBe(404);
    expect(events.filter((e) => e.id === sid).map((e) => `${e.from ?? '-'}>${e.to}:${e.reason}`)).toEqual(['->created:initialize', 'created>active:first-use', 'active>closed:ttl', 'closed>destroyed:ttl']);
    expect(app.sessions.manager.count).toBe(0);
    await app.close();
  });

  it('continues the same Mcp-Session-Id after a restart with a persistent store, without a new handshake', async () => {
    const store = new MemorySessionStore();
    const first = createFusionApp(registry, { ...workspaceOptions(), sessionStore: store });
    const sid = await openSession(first);
    await request(first, sid, 1, 'tools/call', { name: 'cart.add_item', arguments: { product_id: 'p1' } });
    await first.close();

    const second = createFusionApp(registry, { ...workspaceOptions(), sessionStore: store });
    const listed = await request(second, sid, 2, 'tools/list');
    expect(listed.status).toBe(200);
    expect(toolNames(listed.message)).toEqual(expect.arrayContaining(['cart.checkout', 'cart.clear']));
    const checkout = await request(second, sid, 3, 'tools/call', { name: 'cart.checkout', arguments: {} });
    expect(checkout.message.result.isError).toBeUndefined();
    await second.close();
  });

  it('refuses new requests with 503 while shutting down and drains running calls', async () => {
    const { initFusion } = await import('../../src/index.js');
    const f = initFusion();
    let finished = false;
    const slow = f.query('slow.op').handle(async () => {
      await sleep(60);
      finished = true;
      return 'done';
    });
    const app = createFusionApp(f.registry().register(slow), { drainMs: 1_000 });
    const sid = await openSession(app);
    const running = request(app, sid, 1, 'tools/call', { name: 'slow.op', arguments: {} });
    await sleep(10);
    const closing = app.close();
    expect((await post(app, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, sid)).status).toBe(503);
    await closing;
    expect(finished).toBe(true);
    expect((await running).message.result.content[0].text).toBe('done');
  });
});

describe('soak: abandoned legacy sessions', () => {
  it('returns to baseline after 5,000 sessions expire', async () => {
    const app = createFusionApp(registry, { ...workspaceOptions(), sessionTimeouts: { idleMs: 100, ttlMs: 400, sweepIntervalMs: 25 }, limits: { maxSessions: 5_000 } });
    (globalThis as { gc?: () => void }).gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    for (let i = 0; i < 5_000; i++) {
      const sid = await openSession(app);
      await request(app, sid, 1, 'tools/list');
    }
    expect(app.sessions.manager.count).toBe(5_000);
    const heapPeak = process.memoryUsage().heapUsed;
    await sleep(600);
    expect(app.sessions.manager.count).toBe(0);
    expect(app.sessions.size).toBe(0);
    expect((app.sessions.manager.store as MemorySessionStore).size).toBe(0);
    (globalThis as { gc?: () => void }).gc?.();
    const heapAfter = process.memoryUsage().heapUsed;
    process.stderr.write(`soak heap MiB: before ${(heapBefore / 2 ** 20).toFixed(1)}, peak ${(heapPeak / 2 ** 20).toFixed(1)}, after expiry ${(heapAfter / 2 ** 20).toFixed(1)}\n`);
    // Counts are exact; the heap must come back near where it started (allow 20 MiB of allocator noise).
    expect(heapAfter - heapBefore).toBeLessThan(20 * 2 ** 20);
    await app.close();
  }, 120_000);
});
