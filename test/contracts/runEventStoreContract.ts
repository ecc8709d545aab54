import { expect, it } from 'vitest';
import { type EventStore, type EventStoreLimits } from '../../src/index.js';
import { ByteLedger } from '../../src/advanced/index.js';
import { createClock } from '../../src/testing/index.js';

/** A store under test and how to let `ms` pass for its expiry (a fake clock, or Redis' own time). */
export interface EventStoreUnderTest {
  readonly store: EventStore;
  /** Resolves once `ms` have passed for the store's expiry (`check` tells whether an effect is already visible). */
  elapse(ms: number, check: () => Promise<boolean>): Promise<void>;
}

const note = (n: number) => ({
  jsonrpc: '2.0',
  method: 'notifications/message',
  params: { level: 'info', data: `event ${n}` },
});

/**
 * The behaviour every {@link EventStore} must have, in memory or in Redis. `make(limits)` returns a fresh
 * store with those budgets.
 */
export function runEventStoreContract(
  make: (limits: EventStoreLimits) => EventStoreUnderTest | Promise<EventStoreUnderTest>,
): void {
  it('replays the events after an id, in order, and nothing after the last', async () => {
    const { store } = await make({});
    const ids = [];
    for (let n = 1; n <= 4; n++) ids.push(await store.append('s1', note(n)));
    expect(new Set(ids).size).toBe(4);
    const replay = await store.after(ids[1]!);
    expect(replay).toEqual({
      found: true,
      stream: 's1',
      events: [
        { id: ids[2], message: note(3) },
        { id: ids[3], message: note(4) },
      ],
    });
    expect(await store.after(ids[3]!)).toEqual({ found: true, stream: 's1', events: [] });
  });

  it('keeps streams apart: an id replays only its own stream', async () => {
    const { store } = await make({});
    const a = await store.append('a', {});
    await store.append('b', note(1));
    await store.append('a', note(2));
    expect(await store.after(a)).toMatchObject({ found: true, stream: 'a', events: [{ message: note(2) }] });
  });

  it('stores an event appended twice under one key once, and returns its first id', async () => {
    const { store } = await make({});
    const first = await store.append('s', note(1), 'k1');
    const again = await store.append('s', note(1), 'k1');
    await store.append('s', note(2), 'k2');
    expect(again).toBe(first);
    const primed = await store.append('other', {});
    expect((await store.after(primed)).found).toBe(true);
    const all = await store.after(first);
    expect(all).toMatchObject({ found: true, events: [{ message: note(2) }] });
  });

  it('keeps at most maxEventsPerStream events: a replay from an evicted id is refused as evicted', async () => {
    const { store } = await make({ maxEventsPerStream: 3 });
    const ids = [];
    for (let n = 1; n <= 5; n++) ids.push(await store.append('s', note(n)));
    expect(await store.after(ids[0]!)).toEqual({ found: false, reason: 'evicted' });
    // The oldest kept id still replays everything after it.
    expect(await store.after(ids[1]!)).toMatchObject({
      found: true,
      events: [{ message: note(3) }, { message: note(4) }, { message: note(5) }],
    });
  });

  it('keeps at most maxBytesPerStream bytes, always the newest event', async () => {
    const size = JSON.stringify(note(1)).length;
    const { store } = await make({ maxBytesPerStream: size * 2 + 1 });
    const ids = [];
    for (let n = 1; n <= 4; n++) ids.push(await store.append('s', note(n)));
    expect(await store.after(ids[0]!)).toEqual({ found: false, reason: 'evicted' });
    // Events 3 and 4 are kept: the id of event 2 still replays all it missed.
    expect(await store.after(ids[1]!)).toMatchObject({
      found: true,
      events: [{ message: note(3) }, { message: note(4) }],
    });
  });

  it('refuses ids it never issued: malformed, unknown stream, another epoch, a future sequence', async () => {
    const { store } = await make({});
    const id = await store.append('s', note(1));
    expect(await store.after('not-an-id')).toEqual({ found: false, reason: 'malformed' });
    expect(await store.after(id.replace(/^s#/, 'nope#'))).toEqual({ found: false, reason: 'unknown' });
    expect(await store.after(id.replace(/#[0-9a-z]+\./, '#ffffffff.'))).toEqual({ found: false, reason: 'unknown' });
    expect(await store.after(id.replace(/\.1$/, '.9'))).toEqual({ found: false, reason: 'unknown' });
  });

  it('keeps a description beside a stream (what another instance needs to serve it again)', async () => {
    const { store } = await make({});
    expect(await store.descriptionOf('s')).toBeUndefined();
    await store.append('s', {});
    await store.describe('s', { body: { id: 'listen:1' } });
    expect(await store.descriptionOf('s')).toEqual({ body: { id: 'listen:1' } });
    expect(await store.descriptionOf('other')).toBeUndefined();
  });

  it('forgets a stream ttlMs after its last event, and a stream written again starts a new epoch', async () => {
    const { store, elapse } = await make({ ttlMs: 300 });
    const old = await store.append('s', note(1));
    await store.append('s', note(2));
    await store.describe('s', { body: 'listen' });
    await elapse(300, async () => !(await store.after(old)).found && (await store.descriptionOf('s')) === undefined);
    expect(await store.after(old)).toEqual({ found: false, reason: 'unknown' });
    expect(await store.descriptionOf('s')).toBeUndefined();
    const fresh = await store.append('s', note(3));
    expect(fresh).not.toBe(old);
    expect(await store.after(old)).toEqual({ found: false, reason: 'unknown' });
    expect(await store.after(fresh)).toEqual({ found: true, stream: 's', events: [] });
  });

  it('holds what a stream keeps on its owner’s ledger (trimmed with it, its description too) until its TTL', async () => {
    const clock = createClock();
    const ledger = new ByteLedger({}, clock);
    const owner = { ledger, holder: { principal: 'peer:10.0.0.9', peer: '10.0.0.9' } };
    const big = (n: number) => ({ ...note(n), pad: 'p'.repeat(1_000) });
    const size = Buffer.byteLength(JSON.stringify(big(1)));
    const { store } = await make({ maxBytesPerStream: size * 2 + 1, ttlMs: 60_000 });
    for (let n = 1; n <= 3; n++) await store.append('s', big(n), undefined, owner);
    // The stream keeps its two newest events: the oldest left the ledger with it.
    expect(ledger.peerBytes('10.0.0.9', 'event')).toBe(size * 2);
    expect(ledger.principalBytes('peer:10.0.0.9', 'event')).toBe(size * 2);
    const meta = { body: { pad: 'm'.repeat(500) } };
    await store.describe('s', meta, owner);
    expect(ledger.byKind().event).toBe(size * 2 + Buffer.byteLength(JSON.stringify(meta)));
    clock.advance(60_000);
    ledger.sweep();
    expect(ledger.bytes).toBe(0);
  });

  it('numbers an event the ledger refuses without keeping it: a resume from before it is told it was evicted', async () => {
    const ledger = new ByteLedger({ perPrincipal: 1_500 });
    const owner = { ledger, holder: { principal: 'user:ann' } };
    const { store } = await make({});
    const first = await store.append('s', { ...note(1), pad: 'a'.repeat(1_000) }, undefined, owner);
    const refused = await store.append('s', { ...note(2), pad: 'b'.repeat(1_000) }, undefined, owner);
    const held = ledger.principalBytes('user:ann');
    expect(held).toBeLessThanOrEqual(1_500);
    expect(await store.after(first)).toEqual({ found: false, reason: 'evicted' });
    expect(await store.after(refused)).toEqual({ found: true, stream: 's', events: [] });
    const third = await store.append('s', note(3), undefined, owner);
    expect(await store.after(refused)).toEqual({ found: true, stream: 's', events: [{ id: third, message: note(3) }] });
    expect(ledger.principalBytes('user:ann')).toBe(held + Buffer.byteLength(JSON.stringify(note(3))));
  });
}
