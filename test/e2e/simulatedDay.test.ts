import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { clockOf } from '../../src/_internal/clock.js';
import { describe, expect, it } from 'vitest';
import {
  createFusionApp,
  initFusion,
  MemoryFsmStore,
  MemoryRateLimitStore,
  MemorySessionStore,
  type FusionApp,
} from '../../src/index.js';
import { createClock } from '../../src/testing/index.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** A verified token as the host's verifier passes it to `app.fetch` (the principal `u:…`). */
const user = (sub: string) => ({
  token: `t-${sub}`,
  clientId: 'app',
  scopes: [],
  extra: { sub, iss: 'https://id.example' },
});

/** An SDK client over `app.fetch` whose every request carries `caller`; `mode` picks the era. */
async function connect(
  app: FusionApp,
  caller: { authInfo: unknown; peer: string },
  mode: 'legacy' | 'auto',
): Promise<Client> {
  const client = new Client({ name: 'day', version: '1' }, { versionNegotiation: { mode } });
  await client.connect(
    new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), {
      fetch: (url, init) => {
        const request = new Request(url, init);
        request.headers.set('host', '127.0.0.1');
        return app.fetch(request, caller as never);
      },
    }),
  );
  return client;
}

/** A registry whose calls leave something behind per principal: handler data, a workflow instance, counters. */
function dayApp(now: () => number) {
  const f = initFusion();
  const gate = f.fsm({
    id: 'trip',
    initial: 'planning',
    idleTtlMs: HOUR,
    states: { planning: { on: { BOOK: 'booked' } }, booked: {} },
  });
  const registry = f.registry().registerAll(
    f
      .action('prefs.save')
      .withString('theme')
      .handle(async (input, _c, extra) => (await extra.session!.set('theme', input.theme), 'saved')),
    f
      .action('trip.note')
      .bindState('planning')
      .withString('note')
      .handle(async (input, _c, extra) => (await extra.session!.set('note', input.note), 'noted')),
  );
  const stores = {
    sessionStore: new MemorySessionStore({ now }),
    workflowStore: new MemoryFsmStore({ now }),
    rateLimitStore: new MemoryRateLimitStore({ now }),
  };
  const app = createFusionApp(registry, {
    ...stores,
    fsm: gate,
    clock: clockOf(now),
    rateLimit: { max: 1_000, windowMs: MINUTE },
    sessionTimeouts: { ttlMs: 2 * HOUR, idleMs: 30 * MINUTE, sweepIntervalMs: MINUTE },
  });
  return { app, stores };
}

// A day in the life of one process: every ten minutes a new principal arrives (the eras take turns), leave data,
// sessions, workflow instances and rate-limit counters behind, and never come back. Nothing reads their
// records again: only the stores' own timers, on the test clock, can drop them.
describe('a simulated day of principals that never return', () => {
  it('keeps every in-memory store flat once the longest TTL has passed', { timeout: 120_000 }, async () => {
    const clock = createClock();
    const { app, stores } = dayApp(clock.now);
    const sizes: Array<{ hour: number; sessions: number; workflows: number; counters: number }> = [];
    let principal = 0;
    for (let step = 1; step <= 24 * 6; step++) {
      // One new principal per step, the eras taking turns: a legacy session, or modern calls keyed by the principal.
      const caller = { authInfo: user(`p${++principal}`), peer: `10.0.${principal >> 8}.${principal & 255}` };
      const client = await connect(app, caller, step % 2 === 0 ? 'legacy' : 'auto');
      expect((await client.callTool({ name: 'prefs.save', arguments: { theme: 'dark' } })).isError).toBeFalsy();
      expect((await client.callTool({ name: 'trip.note', arguments: { note: 'x' } })).isError).toBeFalsy();
      await client.close(); // the connection goes; the session is never deleted, nor used again
      await clock.advanceAsync(10 * MINUTE);
      if (step % 6 === 0)
        sizes.push({
          hour: step / 6,
          sessions: stores.sessionStore.size,
          workflows: stores.workflowStore.size,
          counters: stores.rateLimitStore.size,
        });
    }
    const settled = sizes.filter((s) => s.hour >= 3);
    // Flat: the same at every hour once the 2 h session TTL has passed, not growing with the 144 principals seen.
    for (const s of settled) expect({ ...s, hour: 3 }, `hour ${s.hour}: ${JSON.stringify(sizes)}`).toEqual(settled[0]);
    // Bounded by what arrived within each TTL: of the 12 principals of the last 2 h, the 6 legacy ones hold a
    // session record and its data, the 6 modern ones their own data; the 3 modern ones of the last hour hold a
    // workflow instance and its data as well (instances live 1 h idle). Counters live one 1-minute window.
    const { sessions, workflows, counters } = settled[0]!;
    expect(sessions).toBeGreaterThanOrEqual(6 * 2 + 6 + 3 - 3); // a sweep may not have run since the oldest's TTL
    expect(sessions).toBeLessThanOrEqual(6 * 2 + 6 + 3);
    expect(workflows).toBeGreaterThanOrEqual(2);
    expect(workflows).toBeLessThanOrEqual(3);
    expect(counters).toBeLessThanOrEqual(2);
    await app.close();
    expect(clock.pending, 'a closed app leaves no timer behind').toBe(0);
  });
});
