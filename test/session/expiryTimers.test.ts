import { describe, expect, it } from 'vitest';
import { MemoryFsmStore, MemorySessionStore } from '../../src/index.js';
import { createClock } from '../../src/testing/index.js';
import { DataBudget } from '../../src/session/DataBudget.js';
import { memorySessionData } from '../../src/session/sessionData.js';
import { HandleBudget } from '../../src/workflow/HandleBudget.js';

const record = (id: string) => ({
  id,
  createdAt: 0,
  lastAccessAt: 0,
  phase: 'active' as const,
  initialized: true,
  protocolVersion: '2025-11-25',
  clientInfo: { name: 'c', version: '1' },
  clientCapabilities: {},
});

// Time and the stores' sweep timers come from the injected clock: advancing it runs the sweeps, without waiting.
describe('in-memory stores drop expired records by themselves, without a read', () => {
  it('MemorySessionStore purges a record past its TTL on its timer, and stops the timer once empty', async () => {
    const clock = createClock();
    const store = new MemorySessionStore({ now: clock.now, sweepEveryMs: 1_000 });
    await store.set(record('short'), 5_000);
    await store.set(record('long'), 60_000);
    expect(clock.pending).toBe(1);
    clock.advance(4_999);
    expect(store.size).toBe(2);
    clock.advance(1);
    expect(store.size).toBe(1);
    clock.advance(55_000);
    expect(store.size).toBe(0);
    expect(clock.pending).toBe(0);
  });

  it('MemoryFsmStore purges handle-keyed instances past expiresAt on its timer; instances without expiry stay', async () => {
    const clock = createClock();
    const store = new MemoryFsmStore({ now: clock.now, sweepEveryMs: 1_000 });
    await store.save('session', { state: 'x', updatedAt: 0 });
    await store.save('handle', { state: 'x', updatedAt: 0, expiresAt: clock.now() + 5_000 });
    clock.advance(6_000);
    expect(store.size).toBe(1);
    expect(await store.load('session')).toBeDefined();
    expect(clock.pending).toBe(0);
    store.dispose();
  });

  it('HandleBudget and DataBudget stop counting expired entries on their timers', () => {
    const clock = createClock();
    const handles = new HandleBudget({ maxPerPrincipal: 1, sweepEveryMs: 1_000 }, clock.now);
    handles.hold('u:a', 'h1', clock.now() + 5_000);
    const data = new DataBudget({ maxBytesPerPrincipal: 100, sweepEveryMs: 1_000 }, clock.now);
    data.hold('w:1', 'u:a', 100, clock.now() + 5_000);
    expect(data.check('w:2', 'u:a', 1)).toBe('principal');
    clock.advance(6_000);
    expect(handles.size).toBe(0);
    expect(data.bytes).toBe(0);
    expect(data.check('w:2', 'u:a', 100)).toBe('ok');
    expect(clock.pending).toBe(0);
  });

  it('memorySessionData drops a key written with a TTL once it passes, and gives its bytes back', async () => {
    const clock = createClock();
    const backend = memorySessionData(100, { now: clock.now, limits: { sweepEveryMs: 1_000 } });
    await backend.save('w:1', { cart: 'x'.repeat(50) }, { owner: 'peer:1', bytes: 62, ttlMs: 5_000 });
    expect(backend.exceeds!('w:2', 'peer:1', 4 * 1024 * 1024 - 61)).toEqual({
      budget: 'principal',
      max: 4 * 1024 * 1024,
    });
    clock.advance(6_000);
    expect(backend.size).toBe(0);
    expect(backend.exceeds!('w:2', 'peer:1', 4 * 1024 * 1024 - 61)).toBeUndefined();
  });
});

describe('DataBudget', () => {
  it('counts bytes per owner and in total, giving back what a key held before a rewrite or delete', () => {
    const budget = new DataBudget({ maxBytesPerPrincipal: 100, maxBytesTotal: 150 });
    budget.hold('k1', 'a', 60, Infinity);
    expect(budget.check('k2', 'a', 41)).toBe('principal');
    expect(budget.check('k1', 'a', 100)).toBe('ok'); // a rewrite of k1 replaces its 60 bytes
    budget.hold('k2', 'b', 80, Infinity);
    expect(budget.check('k3', 'c', 11)).toBe('total');
    budget.release('k1');
    expect(budget.check('k3', 'c', 11)).toBe('ok');
    expect(budget.bytesOf('a')).toBe(0);
    budget.dispose();
  });

  it('refuses limits that are not positive integers', () => {
    expect(() => new DataBudget({ maxBytesTotal: -1 })).toThrow(
      'sessionDataLimits.maxBytesTotal must be a positive integer number of bytes (got -1).',
    );
  });
});

describe('closing an app clears the expiry timers', () => {
  it('leaves no interval behind once workflow data, handles and sessions were held', async () => {
    const { Client, StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
    const { createFusionApp, initFusion } = await import('../../src/index.js');
    const f = initFusion();
    const gate = f.fsm({
      id: 'trip',
      initial: 'planning',
      states: { planning: { on: { BOOK: 'booked' } }, booked: {} },
    });
    const registry = f.registry().registerAll(
      f
        .action('trip.note')
        .bindState('planning')
        .withString('note')
        .handle(async (input, _c, extra) => (await extra.session!.set('note', input.note), 'noted')),
    );
    const clock = createClock();
    const app = createFusionApp(registry, { fsm: gate, clock });
    const client = new Client({ name: 'c', version: '1' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(
      new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), {
        fetch: (url, init) => {
          const request = new Request(url, init);
          request.headers.set('host', '127.0.0.1');
          return app.fetch(request, { peer: '10.0.0.1' });
        },
      }),
    );
    await client.callTool({ name: 'trip.note', arguments: { note: 'x' } });
    expect(clock.pending).toBeGreaterThan(0);
    await client.close();
    await app.close();
    expect(clock.pending).toBe(0);
  });
});
