import { afterAll, describe, expect, it } from 'vitest';
import { registry, workspaceOptions } from '../../examples/workspace/registry.js';
import { nowOf } from '../../src/_internal/clock.js';
import { ByteLedger } from '../../src/ledger/index.js';
import { createFusionApp, startServer } from '../../src/index.js';
import { createClock } from '../../src/testing/index.js';
import { until } from '../_helpers/waitFor.js';
import { closeAgents, modernRequest, openFrom } from '../abuse/_peerRequest.js';

afterAll(closeAgents);

/** A listen request whose bulk (`pad`, `size` bytes) sits outside its filter. */
const padded = (size: number) =>
  modernRequest('subscriptions/listen', {
    notifications: { resourceSubscriptions: ['workspace://r/1'] },
    pad: 'x'.repeat(size),
  });

async function started(ledger: ByteLedger, options: Record<string, unknown> = {}) {
  const server = await startServer(registry, { ...workspaceOptions(), port: 0, heldBytes: ledger, ...options });
  return Object.assign(server, { [Symbol.asyncDispose]: () => server.close() });
}

describe('listen requests in the ledger', () => {
  it('holds the whole request while the stream is open and its recording is kept, then releases it', async () => {
    const clock = createClock();
    const ledger = new ByteLedger({}, clock);
    await using server = await started(ledger, { now: nowOf(clock), listenResumeMs: 1_000 });
    const listen = padded(200_000);
    const res = await openFrom('127.0.0.2', server.url, listen.body, listen.headers);
    expect(res.statusCode).toBe(200);
    const held = ledger.peerBytes('127.0.0.2', 'listen');
    expect(held).toBeGreaterThanOrEqual(200_000);
    expect(held).toBeLessThan(listen.body.length + 1_000);
    expect(ledger.principalBytes('peer:127.0.0.2', 'listen')).toBe(held);
    // The event store keeps the request too (to serve the stream on another instance), for the stream's TTL.
    const stored = ledger.peerBytes('127.0.0.2', 'event');
    expect(stored).toBeGreaterThanOrEqual(200_000);
    expect(ledger.bytes).toBe(held + stored);
    const droppedAt = clock.now();
    res.destroy();
    // Dropped, the stream is still recorded for resume (1 s on the clock from when the server noticed): held.
    await until(() => (clock.advance(50), ledger.byKind().listen === 0), 'the recording to end with its hold');
    expect(clock.now() - droppedAt).toBeGreaterThanOrEqual(1_000);
    // The stored stream is held until it expires (5 minutes after its last event).
    expect(ledger.peerBytes('127.0.0.2', 'event')).toBe(stored);
    clock.advance(5 * 60_000);
    ledger.sweep();
    expect(ledger.bytes).toBe(0);
  });

  it('without an event store, releases the hold when the stream closes', async () => {
    const ledger = new ByteLedger();
    await using server = await started(ledger, { eventStore: false });
    const listen = padded(100_000);
    const res = await openFrom('127.0.0.3', server.url, listen.body, listen.headers);
    expect(res.statusCode).toBe(200);
    expect(ledger.peerBytes('127.0.0.3', 'listen')).toBeGreaterThanOrEqual(100_000);
    res.destroy();
    await until(() => ledger.bytes === 0, 'the stream to close with its hold');
  });

  it('refuses a listen past the budget with 429, Retry-After and the text; another peer is still served', async () => {
    // The host parsed the bodies (no body hold): only the listens count (each twice: the open stream's request,
    // and the event store's copy of it), 2 × 2 × 200 KB fit the principal, 3 do not.
    const ledger = new ByteLedger({ perPrincipal: 900_000, perPeer: 2_000_000, retryAfterSeconds: 9 });
    const app = createFusionApp(registry, { ...workspaceOptions(), heldBytes: ledger });
    const listen = (peer: string) => {
      const { body, headers } = padded(200_000);
      const request = new Request('http://127.0.0.1/mcp', {
        method: 'POST',
        headers: { ...headers, host: '127.0.0.1' },
      });
      request.headers.set('content-type', 'application/json');
      request.headers.set('accept', 'application/json, text/event-stream');
      return app.fetch(request, { peer, parsedBody: JSON.parse(body) });
    };
    const open = [await listen('127.0.0.4'), await listen('127.0.0.4')];
    expect(open.map((r) => r.status)).toEqual([200, 200]);
    const refused = await listen('127.0.0.4');
    expect([refused.status, refused.headers.get('retry-after')]).toEqual([429, '9']);
    const error = ((await refused.json()) as { error: { message: string } }).error;
    expect(error.message).toMatch(/^The server already holds .* for you .* listen request .* retry after 9 s\.$/);
    const other = await listen('127.0.0.5');
    expect(other.status).toBe(200);
    for (const r of [...open, other]) await r.body?.cancel();
    await app.close();
    await until(() => ledger.byKind().listen === 0, 'every listen hold to end at shutdown');
  });
});
