import { expect, it, vi } from 'vitest';
import type { TaskRecord, TaskStore } from '../../src/index.js';
import { TaskLedger } from '../../src/tasks/TaskLedger.js';
import { finish } from '../../src/tasks/transitions.js';

function record(id: string, extra: Partial<TaskRecord> = {}): TaskRecord {
  const now = Date.now();
  return {
    id,
    owner: 'alice',
    tool: 'reports.generate',
    status: 'working',
    createdAt: now,
    lastUpdatedAt: now,
    ttlMs: 60_000,
    pollIntervalMs: 500,
    ...extra,
  };
}

/**
 * The behaviour every {@link TaskStore} must have, in memory or in Redis, as the {@link TaskLedger} uses it.
 * Call it inside a `describe` naming the implementation; `make` returns a fresh, empty store on the real clock.
 */
export function runTaskStoreContract(make: () => TaskStore | Promise<TaskStore>): void {
  it('gets undefined for an unknown id', async () => {
    const store = await make();
    expect(await store.get('nobody')).toBeUndefined();
  });

  it('creates at version 1 and round-trips a copy', async () => {
    const store = await make();
    const r = record('t1', { statusMessage: 'starting' });
    expect(await store.create(r, { maxActivePerOwner: 5 })).toBe('ok');
    r.status = 'failed';
    const got = await store.get('t1');
    expect(got).toEqual({
      record: record('t1', {
        statusMessage: 'starting',
        createdAt: got!.record.createdAt,
        lastUpdatedAt: got!.record.lastUpdatedAt,
      }),
      version: 1,
    });
    got!.record.status = 'cancelled';
    expect((await store.get('t1'))!.record.status).toBe('working');
  });

  it('compareAndSet writes over the expected version only, and bumps it', async () => {
    const store = await make();
    await store.create(record('t'), { maxActivePerOwner: 5 });
    expect(await store.compareAndSet('t', 1, record('t', { statusMessage: 'half way' }))).toBe('ok');
    expect(await store.compareAndSet('t', 1, record('t', { statusMessage: 'stale' }))).toBe('conflict');
    expect(await store.get('t')).toMatchObject({ version: 2, record: { statusMessage: 'half way' } });
  });

  it('never changes a terminal task, and answers final for an unknown one', async () => {
    const store = await make();
    await store.create(record('t'), { maxActivePerOwner: 5 });
    expect(await store.compareAndSet('t', 1, record('t', { status: 'completed', result: { content: [] } }))).toBe('ok');
    expect(await store.compareAndSet('t', 2, record('t', { status: 'cancelled' }))).toBe('final');
    expect(await store.get('t')).toMatchObject({
      version: 2,
      record: { status: 'completed', result: { content: [] } },
    });
    expect(await store.compareAndSet('ghost', 1, record('ghost'))).toBe('final');
  });

  it('lands one terminal transition when a cancel races a completion from two instances', async () => {
    const store = await make();
    const a = new TaskLedger({ store });
    const b = new TaskLedger({ store });
    for (let round = 0; round < 10; round++) {
      const task = await a.create({ owner: 'alice', tool: 'reports.generate', ttlMs: 60_000, pollIntervalMs: 100 });
      const [completed, cancelled] = await Promise.all([
        a.step(task.id, (r) =>
          finish(r, Date.now(), { status: 'completed', result: { content: [{ type: 'text', text: 'done' }] } }),
        ),
        b.step(task.id, (r) => finish(r, Date.now(), { status: 'cancelled' })),
      ]);
      // Both see the same winner: the loser's step did not apply and returned the stored terminal record.
      expect(completed!.status).toBe(cancelled!.status);
      expect(['completed', 'cancelled']).toContain(completed!.status);
      expect((await store.get(task.id))!.record.status).toBe(completed!.status);
      a.release();
    }
  });

  it('refuses a task over the owner budget, counting only active tasks of that owner', async () => {
    const store = await make();
    expect(await store.create(record('a1'), { maxActivePerOwner: 2 })).toBe('ok');
    expect(await store.create(record('a2'), { maxActivePerOwner: 2 })).toBe('ok');
    expect(await store.create(record('a3'), { maxActivePerOwner: 2 })).toBe('busy');
    expect(await store.create(record('b1', { owner: 'bob' }), { maxActivePerOwner: 2 })).toBe('ok');
    expect(await store.compareAndSet('a1', 1, record('a1', { status: 'cancelled' }))).toBe('ok');
    expect(await store.create(record('a3'), { maxActivePerOwner: 2 })).toBe('ok');
    expect(await store.get('a3')).toBeDefined();
  });

  it("counts stored result bytes per owner until they expire, refusing what would pass the owner's budget", async () => {
    const store = await make();
    const far = Date.now() + 60_000;
    expect(await store.reserveResult('alice', 't1', 600, { expiresAt: far, maxBytes: 1_000 })).toBe(true);
    expect(await store.reserveResult('alice', 't2', 500, { expiresAt: far, maxBytes: 1_000 })).toBe(false);
    expect(await store.reserveResult('bob', 't3', 900, { expiresAt: far, maxBytes: 1_000 })).toBe(true);
    // 300 ms: long enough for the round trips before it on a loaded machine.
    expect(await store.reserveResult('alice', 't4', 400, { expiresAt: Date.now() + 300, maxBytes: 1_000 })).toBe(true);
    expect(await store.reserveResult('alice', 't5', 1, { expiresAt: far, maxBytes: 1_000 })).toBe(false);
    // Expiry is the store's own clock (Redis' for Redis): wait for the reservation to lapse, polled.
    await vi.waitFor(
      async () => expect(await store.reserveResult('alice', 't5', 400, { expiresAt: far, maxBytes: 1_000 })).toBe(true),
      { timeout: 5_000, interval: 50 },
    );
  });

  it('forgets a task once createdAt + ttlMs has passed', async () => {
    const store = await make();
    // 300 ms, not less: the read before expiry is a Redis round trip or two, which a loaded machine can stretch.
    await store.create(record('short', { ttlMs: 300 }), { maxActivePerOwner: 5 });
    await store.create(record('long'), { maxActivePerOwner: 5 });
    expect(await store.get('short')).toBeDefined();
    await vi.waitFor(async () => expect(await store.get('short')).toBeUndefined(), { timeout: 5_000, interval: 50 });
    expect(await store.compareAndSet('short', 1, record('short', { status: 'completed' }))).toBe('final');
    expect(await store.get('long')).toBeDefined();
  });

  it('through the ledger: another principal gets not found, and a task past its lease fails with what to do', async () => {
    const store = await make();
    const ledger = new TaskLedger({ store });
    const task = await ledger.create({
      owner: 'alice',
      tool: 'reports.generate',
      ttlMs: 60_000,
      pollIntervalMs: 100,
      leaseUntil: Date.now() - 1,
    });
    expect(await ledger.get(task.id, 'bob')).toBeUndefined();
    // The store lists the lost task for a takeover sweep, and no longer once it is terminal.
    expect(await store.expiredLeases?.(Date.now(), 10)).toEqual([task.id]);
    const seen = await ledger.get(task.id, 'alice');
    expect(seen).toMatchObject({ status: 'failed', error: { code: -32603 } });
    expect(seen!.error!.message).toBe(
      `The server instance running task "${task.id}" (reports.generate, attempt 1) stopped before it finished. ` +
        'Its work may be partly done and "reports.generate" is not declared safe to repeat: check its effects before calling again.',
    );
    expect(await store.expiredLeases?.(Date.now(), 10)).toEqual([]);
  });

  it("lists an owner's tasks oldest first in pages (terminal ones included, expired and others' left out), behind cursors bound to their owner", async () => {
    const store = await make();
    const ledger = new TaskLedger({ store });
    const now = Date.now();
    for (let i = 0; i < 5; i++)
      expect(await store.create(record(`a${i}`, { createdAt: now + i }), { maxActivePerOwner: 10 })).toBe('ok');
    await store.create(record('b0', { owner: 'bob', createdAt: now }), { maxActivePerOwner: 10 });
    await store.create(record('gone', { createdAt: now - 60_000, ttlMs: 1 }), { maxActivePerOwner: 10 });
    await ledger.step('a1', (r) => finish(r, now, { status: 'cancelled' }));
    const ids: string[][] = [];
    let cursor: string | undefined;
    do {
      const page = await ledger.list('alice', cursor, 2);
      ids.push(page.records.map((r) => r.id));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    expect(ids).toEqual([['a0', 'a1'], ['a2', 'a3'], ['a4']]);
    const first = await ledger.list('alice', undefined, 2);
    expect(first.records[1]!.status).toBe('cancelled');
    expect((await ledger.list('bob', undefined, 10)).records.map((r) => r.id)).toEqual(['b0']);
    await expect(ledger.list('bob', first.nextCursor, 2)).rejects.toThrow(/issued to another caller/);
    await expect(ledger.list('alice', 'not-a-cursor', 2)).rejects.toThrow(/not one this server issued/);
    await expect(ledger.list('alice', first.nextCursor, 2)).resolves.toMatchObject({
      records: [{ id: 'a2' }, { id: 'a3' }],
    });
  });
}
