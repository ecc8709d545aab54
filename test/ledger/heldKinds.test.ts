import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import type { Redis } from 'ioredis';
import { initFusion, MemoryEventStore, startServer } from '../../src/index.js';
import { ByteLedger } from '../../src/advanced/index.js';
import { RedisEventStore } from '../../src/redis/index.js';
import { ready, redisClient, uniquePrefix } from '../redis/clients.js';
import { LogQueue } from '../../src/logging/LogQueue.js';
import { jobsRegistry } from '../abuse/fixtures/taskFlood.js';
import { createClock } from '../../src/testing/createClock.js';
import { closedOnClock, httpServer, texts, v2HttpClientFrom, type TestClient } from '../_helpers/clients.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const anything = { '~standard': { version: 1, vendor: 'test', validate: (value: unknown) => ({ value }) } } as any;
const request = (client: Client, method: string, params: Record<string, unknown>): Promise<any> =>
  client.request({ method, params } as any, anything);

let redis: Redis | undefined;
const opened: TestClient[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((c) => c[Symbol.asyncDispose]()));
});
const legacyClient = async (url: string, peer: string): Promise<TestClient> => {
  const client = await v2HttpClientFrom(url, peer, 'legacy');
  opened.push(client);
  return client;
};

/**
 * The contract of every kind of held data this runtime keeps for a client: driven through a real SDK client
 * against an app sharing the test's ledger, the ledger's `byKind()` of that kind grows while the data is held
 * and returns to 0 once it is released (deleted, or expired on the clock).
 */
describe('every kind of held data is charged to the ledger', () => {
  it('task: the arguments while it runs, the record until it expires', async () => {
    const clock = createClock();
    const ledger = new ByteLedger({}, clock);
    const registry = jobsRegistry(10);
    await using srv = closedOnClock(
      await startServer(registry, { port: 0, heldBytes: ledger, clock, drainMs: 0 }),
      clock,
    );
    const client = await legacyClient(srv.url, '127.0.0.2');
    const blob = 'x'.repeat(50_000);
    const started = await request(client, 'tools/call', {
      name: 'jobs.run',
      arguments: { blob },
      task: { ttl: 60_000 },
    });
    expect(ledger.byKind().task).toBeGreaterThan(50_000);
    expect(ledger.peerBytes('127.0.0.2', 'task')).toBe(ledger.byKind().task);
    await request(client, 'tasks/cancel', { taskId: started.task.taskId });
    // Cancelled: the record without the arguments is held until it expires.
    expect(ledger.byKind().task).toBeGreaterThan(0);
    expect(ledger.byKind().task).toBeLessThan(50_000);
    clock.advance(60_001);
    ledger.sweep();
    expect(ledger.byKind().task).toBe(0);
  });

  it('task: arguments past the budget refuse the call with the ledger text; nothing is held', async () => {
    // The body (150 kB) fits; while it is held, the task's copy of its arguments does not.
    const ledger = new ByteLedger({ perPrincipal: 200_000 });
    const registry = jobsRegistry(10);
    await using srv = await httpServer(registry, { heldBytes: ledger, drainMs: 0 });
    const client = await legacyClient(srv.url, '127.0.0.3');
    const call = request(client, 'tools/call', {
      name: 'jobs.run',
      arguments: { blob: 'y'.repeat(150_000) },
      task: {},
    });
    await expect(call).rejects.toMatchObject({
      code: -32600,
      message: expect.stringMatching(
        /The server already holds 147 KiB for you \(the limit is 195 KiB\), so this task \(147 KiB\) was refused\./,
      ),
    });
    expect(ledger.byKind().task).toBe(0);
  });

  for (const backend of ['memory', 'redis'] as const)
    it(`event (${backend}): a session's stored stream events, held for its peer until they expire; past the budget a result still arrives`, async () => {
      const clock = createClock();
      const ledger = new ByteLedger({ perPrincipal: 150_000 }, clock);
      const eventStore =
        backend === 'memory'
          ? new MemoryEventStore({ now: clock.now })
          : new RedisEventStore({ client: (redis ??= await ready(redisClient())), prefix: uniquePrefix('held') });
      const f = initFusion();
      // A progress note first: the answer is a stream then, whose events are stored for resuming.
      const registry = f
        .registry()
        .registerAll(
          f.query('big.get').handle(async (_i, _c, extra) => (await extra.progress(1, 1), 'r'.repeat(60_000))),
        );
      await using srv = closedOnClock(
        await startServer(registry, { port: 0, heldBytes: ledger, clock, drainMs: 0, eventStore }),
        clock,
      );
      const client = await legacyClient(srv.url, '127.0.0.5');
      const got: number[] = [];
      const held: number[] = [];
      for (let i = 0; i < 3; i++) {
        const answer = await client.callTool({ name: 'big.get', arguments: {} }, { onprogress: () => {} });
        got.push(texts(answer)[0]!.length);
        held.push(ledger.peerBytes('127.0.0.5', 'event'));
      }
      // Each answer is stored for resuming (60 kB), the third one no longer fits: it is sent, not kept.
      expect(got).toEqual([60_000, 60_000, 60_000]);
      expect(held[0]).toBeGreaterThan(60_000);
      expect(held[1]).toBeGreaterThan(120_000);
      expect(held[2]).toBeLessThan(held[1]! + 1_000);
      expect(ledger.principalBytes('peer:127.0.0.5')).toBeLessThanOrEqual(150_000);
      clock.advance(5 * 60_000);
      ledger.sweep();
      expect(ledger.byKind().event).toBe(0);
    });

  it('sessionData: held while stored, down to the empty object once its value is deleted', async () => {
    const ledger = new ByteLedger();
    const f = initFusion();
    const registry = f.registry().registerAll(
      f
        .action('note.set')
        .withString('text')
        .handle(async (input, _c, extra) => (await extra.session!.set('note', input.text), 'set')),
      f.action('note.clear').handle(async (_i, _c, extra) => (await extra.session!.delete('note'), 'cleared')),
    );
    await using srv = await httpServer(registry, { heldBytes: ledger });
    const client = await legacyClient(srv.url, '127.0.0.4');
    expect(texts(await client.callTool({ name: 'note.set', arguments: { text: 'z'.repeat(20_000) } }))).toEqual([
      'set',
    ]);
    expect(ledger.byKind().sessionData).toBeGreaterThan(20_000);
    expect(ledger.peerBytes('127.0.0.4', 'sessionData')).toBe(ledger.byKind().sessionData);
    expect(texts(await client.callTool({ name: 'note.clear', arguments: {} }))).toEqual(['cleared']);
    expect(ledger.byKind().sessionData).toBe(2); // {}
  });

  it('log: lines waiting for a slow reader are held for the server, 0 once written', () => {
    const ledger = new ByteLedger();
    let drain: (() => void) | undefined;
    const written: string[] = [];
    let full = true;
    const stream = {
      write: (line: string) => (written.push(line), !full),
      once: (_event: 'drain', listener: () => void) => void (drain = listener),
    };
    const queue = new LogQueue(stream, (n) => `dropped ${n}\n`);
    queue.chargeTo(ledger);
    queue.write('first\n');
    queue.write('x'.repeat(1_000) + '\n');
    expect(ledger.byKind().log).toBe(1_001);
    expect(ledger.bytes).toBe(1_001);
    full = false;
    drain!();
    expect(ledger.byKind().log).toBe(0);
  });
});

/**
 * The rule: a file under src/ whose name says it keeps things for later (a store, a recorder or recordings,
 * a queue, a hub, a budget) either charges the ledger (names it) or is listed here with why it holds no
 * client bytes of its own. A new store that keeps what clients send fails this test until it charges the
 * ledger (or says here why it need not).
 */
const HOLDING = /(Store|Recorder|Recordings|Queue|Hub|Budget)\.ts$/;
const EXCEPTIONS: Record<string, string> = {
  'src/limits/MemoryRateLimitStore.ts': 'counters per principal and tool: fixed size, no client bytes',
  'src/redis/RedisRateLimitStore.ts': 'counters per principal and tool, in Redis: fixed size, no client bytes',
  'src/server/http/CallBudget.ts': 'counts calls in flight; the bodies are charged where they are read (kind body)',
  'src/server/middleware/callBudget.ts': 'the HTTP front of CallBudget: counts, holds no bytes',
  'src/runtime/request-state/NonceStore.ts':
    'the interface of used requestState nonces; RequestStateSeal charges them (requestState)',
  'src/runtime/request-state/MemoryNonceStore.ts':
    'fixed-size used nonces, charged by RequestStateSeal (requestState) before the claim',
  'src/redis/RedisNonceStore.ts': 'fixed-size used nonces in Redis, charged by RequestStateSeal (requestState)',
  'src/tasks/TaskStore.ts': 'the interface of task records; TaskLedger charges each record before writing it (task)',
  'src/tasks/MemoryTaskStore.ts': 'task records written by TaskLedger, which charged them (task, until expiry)',
  'src/redis/RedisTaskStore.ts': 'task records in Redis written by TaskLedger, which charged them (task)',
  'src/tasks/TaskQueue.ts': 'the interface of task runs handed to workers: a task id and attempt each, no client bytes',
  'src/redis/BullTaskQueue.ts':
    'BullMQ jobs of a task id and attempt (the record, charged as task, stays in the store)',
  'src/fsm/FsmStateStore.ts': 'workflow states: values of the server’s own machine, no client bytes',
  'src/fsm/MemoryFsmStore.ts': 'workflow states of the server’s machine; handle instances are charged by HandleBudget',
  'src/redis/RedisFsmStore.ts': 'workflow states of the server’s machine, in Redis; instances charged by HandleBudget',
  'src/session/sessionFsmStore.ts': 'workflow states kept in session records: the server’s machine values',
  'src/testing/sessionStateStore.ts': 'a test helper over a session store; holds nothing of its own',
  'src/session/SessionStore.ts':
    'the interface of session records: their data is charged by DataBudget (sessionData), their initialize params where the legacy front admits them (session)',
  'src/session/MemorySessionStore.ts': 'session records, charged by their writers (DataBudget, the legacy front)',
  'src/redis/RedisSessionStore.ts': 'session records in Redis, charged by their writers (DataBudget, the legacy front)',
};
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );
}

describe('a store that holds client bytes charges the ledger', () => {
  const holding = sourceFiles(join(root, 'src'))
    .map((file) => relative(root, file).split('\\').join('/'))
    .filter((file) => HOLDING.test(file));

  it('finds the holding stores (the rule matches something)', () => {
    expect(holding).toContain('src/logging/LogQueue.ts');
    expect(holding).toContain('src/tasks/MemoryTaskStore.ts');
    expect(holding).toContain('src/session/MemoryEventStore.ts');
    expect(holding).toContain('src/redis/RedisEventStore.ts');
  });

  it('every holding store names the ledger, or is an exception that says why', () => {
    const uncharged = holding.filter(
      (file) => !/ledger/i.test(readFileSync(join(root, file), 'utf8')) && EXCEPTIONS[file] === undefined,
    );
    expect(uncharged).toEqual([]);
  });

  it('lists no exception that is gone or already charges the ledger', () => {
    for (const file of Object.keys(EXCEPTIONS)) {
      expect(holding, `${file} is listed but no longer a holding store`).toContain(file);
      expect(
        /ledger/i.test(readFileSync(join(root, file), 'utf8')),
        `${file} names the ledger: drop it from EXCEPTIONS`,
      ).toBe(false);
    }
  });
});
