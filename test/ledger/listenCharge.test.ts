import { afterAll, describe, expect, it } from 'vitest';
import { registry, workspaceOptions } from '../../examples/workspace/registry.js';
import { nowOf } from '../../src/_internal/clock.js';
import { ByteLedger } from '../../src/ledger/index.js';
import { startServer } from '../../src/index.js';
import { createClock } from '../../src/testing/index.js';
import { until } from '../_helpers/waitFor.js';
import { closeAgents, modernRequest, openFrom, postFrom } from '../abuse/_peerRequest.js';

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
    expect(ledger.bytes).toBe(held);
    const droppedAt = clock.now();
    res.destroy();
    // Dropped, the stream is still recorded for resume (1 s on the clock from when the server noticed): held.
    await until(() => (clock.advance(50), ledger.bytes === 0), 'the recording to end with its hold');
    expect(clock.now() - droppedAt).toBeGreaterThanOrEqual(1_000);
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
    // A listen's body and its stream are both held while the request is answered: 2 × 200 KB fit, 3 do not.
    const ledger = new ByteLedger({ perPrincipal: 450_000, perPeer: 1_000_000, retryAfterSeconds: 9 });
    await using server = await started(ledger);
    const first = await openFrom('127.0.0.4', server.url, padded(200_000).body, padded(0).headers);
    expect(first.statusCode).toBe(200);
    const second = await postFrom('127.0.0.4', server.url, padded(200_000).body, padded(0).headers);
    expect([second.status, second.headers['retry-after']]).toEqual([429, '9']);
    const error = (JSON.parse(second.body) as { error: { message: string }; id: unknown }).error;
    expect(error.message).toMatch(/^The server already holds .* for you .* listen request .* retry after 9 s\.$/);
    const other = await openFrom('127.0.0.5', server.url, padded(200_000).body, padded(0).headers);
    expect(other.statusCode).toBe(200);
    first.destroy();
    other.destroy();
    await server.close();
    await until(() => ledger.bytes === 0, 'every hold to end at shutdown');
  });
});
