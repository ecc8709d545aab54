import type { Client } from '@modelcontextprotocol/client';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import { createFusionApp, initFusion, type FusionApp, type WorkflowChange } from '../../src/index.js';
import { RedisEventBus, RedisFsmStore, RedisSessionStore, RedisTaskStore } from '../../src/redis/index.js';
import {
  callToolAsTask,
  cancelTask,
  modernTaskEndpoint,
  waitForTask,
  type TaskChannel,
} from '../../src/testing/index.js';
import { until } from '../_helpers/waitFor.js';
import { legacyClientTo } from './_busInstances.js';
import { ready, redisClient, uniquePrefix } from './clients.js';

const f = initFusion();
/** Long enough that no lease renewal (every third of it) can carry a cancel within a test. */
const LEASE_MS = 120_000;
const URL_ = 'http://127.0.0.1/mcp';

/** One run of the deaf `doc.submit`: when its signal aborted, and how to make it return successfully. */
interface Run {
  /** Resolves with the `performance.now()` at which the handler's signal aborted. */
  readonly aborted: Promise<number>;
  readonly isAborted: () => boolean;
  finish(): void;
}

/** An approval workflow whose `doc.submit` (draft → review) runs as a task and ignores its signal. */
function approval() {
  const runs: Run[] = [];
  const gate = f.fsm({
    id: 'approval',
    initial: 'draft',
    states: { draft: { on: { SUBMIT: 'review' } }, review: { on: { APPROVE: 'approved' } }, approved: {} },
  });
  const registry = f.registry().registerAll(
    f
      .mutation('doc.open')
      .bindState('draft')
      .handle(() => 'Draft open.'),
    f
      .mutation('doc.submit')
      .bindState('draft', 'SUBMIT')
      .invalidates('docs.*')
      .task({ pollIntervalMs: 20 })
      .handle(
        (_args, _ctx, extra) =>
          new Promise((resolve) => {
            let aborted = false;
            let heard!: (at: number) => void;
            const abortedPromise = new Promise<number>((r) => (heard = r));
            extra.signal.addEventListener('abort', () => ((aborted = true), heard(performance.now())), {
              once: true,
            });
            runs.push({ aborted: abortedPromise, isAborted: () => aborted, finish: () => resolve('Submitted.') });
          }),
      ),
    f
      .mutation('doc.approve')
      .bindState('review', 'APPROVE')
      .handle(() => 'Approved.'),
    f.query('docs.list').handle(() => []),
  );
  return { gate, registry, runs };
}

type Approval = ReturnType<typeof approval>;

/** What one instance heard: workflow changes (listen notifications) and State Sync invalidations. */
interface Instance {
  readonly app: FusionApp;
  readonly changes: WorkflowChange[];
  readonly invalidations: string[];
  close(): Promise<void>;
}

/** One instance in this process on the shared Redis under `prefix`; `bus: false` leaves the task bus out. */
async function instance(client: Redis, prefix: string, wf: Approval, bus: boolean): Promise<Instance> {
  const changes: WorkflowChange[] = [];
  const invalidations: string[] = [];
  const events = bus
    ? new RedisEventBus({ publisher: client, subscriber: redisClient(), prefix: `${prefix}bus:` })
    : undefined;
  await events?.ready();
  const app = createFusionApp(wf.registry, {
    fsm: wf.gate,
    drainMs: 0,
    listChangedDebounceMs: 5,
    sessionStore: new RedisSessionStore({ client, prefix: `${prefix}session:` }),
    fsmStore: new RedisFsmStore({ client, prefix: `${prefix}fsm:session:` }),
    workflowStore: new RedisFsmStore({ client, prefix: `${prefix}fsm:handle:` }),
    tasks: { store: new RedisTaskStore({ client, prefix: `${prefix}tasks:` }), leaseMs: LEASE_MS },
    ...(events !== undefined ? { bus: events } : {}),
    onWorkflowChange: (change) => changes.push(change),
    stateSync: { policies: [], onInvalidation: (e) => invalidations.push(e.causedBy) },
  });
  return {
    app,
    changes,
    invalidations,
    close: async () => {
      await app.close();
      await events?.close();
    },
  };
}

/** A 2025-11-25 SDK client whose requests go to `to.app` (switch it to move the next request to another instance). */
const legacyClient = (to: { app: FusionApp }): Promise<Client> => legacyClientTo(to, 'cancel-everywhere');

const modernOn = (app: FusionApp): TaskChannel => modernTaskEndpoint(URL_, { fetch: (r) => app.fetch(r) });
const names = async (client: Client) => (await client.listTools()).tools.map((t) => t.name).sort();
const DRAFT = ['doc.open', 'doc.submit', 'docs.list'];
const REVIEW = ['doc.approve', 'docs.list'];

/** The state of a modern workflow instance, read through `doc.open` (allowed in `draft` only) on `channel`. */
async function modernState(channel: TaskChannel, handle: string): Promise<unknown> {
  const result = await channel.request('tools/call', { name: 'doc.open', arguments: { approval_id: handle } });
  return result.isError === true ? 'not draft' : (result._meta as any)['fusion/workflow'].state;
}

describe('a task cancelled on another instance never transitions its workflow (Redis, two instances)', () => {
  let client: Redis;
  beforeAll(async () => {
    client = await ready(redisClient());
  });

  const cases = [
    {
      bus: true,
      same: false,
      how: 'cancel on B; the handler on A is aborted through the bus, long before any lease renewal',
    },
    {
      bus: false,
      same: false,
      how: 'cancel on B, no task bus: the result returned after the cancel is dropped by its claim',
    },
    { bus: true, same: true, how: 'cancel on A itself: the handler is aborted at once' },
  ];
  for (const { bus, same, how } of cases) {
    it(`2025-11-25, a task running on A: no transition, no list_changed, no invalidation; ${how}`, async () => {
      const wf = approval();
      const prefix = uniquePrefix('cancel');
      const a = await instance(client, prefix, wf, bus);
      const b = await instance(client, prefix, wf, bus);
      const to = { app: a.app };
      const mcp = await legacyClient(to);
      let listChanged = 0;
      mcp.setNotificationHandler('notifications/tools/list_changed', () => void listChanged++);
      try {
        const task = await callToolAsTask(mcp, 'doc.submit');
        await until(() => wf.runs.length === 1, 'the task to run on A');
        to.app = same ? a.app : b.app;
        const cancelAt = performance.now();
        expect((await cancelTask(mcp, task)).status).toBe('cancelled');
        const run = wf.runs[0]!;
        if (bus) expect((await run.aborted) - cancelAt).toBeLessThan(1_000);
        else expect(run.isAborted()).toBe(false);
        run.finish();
        to.app = a.app;
        expect((await waitForTask(mcp, task)).status).toBe('cancelled');
        // The workflow is still in draft, read on both instances; nothing was announced.
        expect(await names(mcp)).toEqual(DRAFT);
        to.app = b.app;
        expect(await names(mcp)).toEqual(DRAFT);
        expect([a.invalidations, b.invalidations]).toEqual([[], []]);

        // The same path completing does transition and notify: the silence above was not a deaf channel.
        to.app = a.app;
        const second = await callToolAsTask(mcp, 'doc.submit');
        await until(() => wf.runs.length === 2, 'the second task to run');
        wf.runs[1]!.finish();
        expect((await waitForTask(mcp, second)).status).toBe('completed');
        await until(() => listChanged === 1, 'list_changed of the completed task');
        expect(await names(mcp)).toEqual(REVIEW);
        expect(a.invalidations).toEqual(['doc.submit']);
      } finally {
        await mcp.close();
        await a.close();
        await b.close();
      }
    });

    it(`2026-07-28, a task running on A: the instance stays in draft, no workflow change heard; ${how}`, async () => {
      const wf = approval();
      const prefix = uniquePrefix('cancel');
      const a = await instance(client, prefix, wf, bus);
      const b = await instance(client, prefix, wf, bus);
      const onA = modernOn(a.app);
      const onB = modernOn(b.app);
      try {
        const opened = await onA.request('tools/call', { name: 'doc.open', arguments: {} });
        const handle = (opened._meta as any)['fusion/workflow'].handle as string;
        const task = await callToolAsTask(onA, 'doc.submit', { approval_id: handle });
        await until(() => wf.runs.length === 1, 'the task to run on A');
        const cancelAt = performance.now();
        expect((await cancelTask(same ? onA : onB, task)).status).toBe('cancelled');
        const run = wf.runs[0]!;
        if (bus) expect((await run.aborted) - cancelAt).toBeLessThan(1_000);
        else expect(run.isAborted()).toBe(false);
        run.finish();
        expect((await waitForTask(onA, task)).status).toBe('cancelled');
        expect(await modernState(onA, handle)).toBe('draft');
        expect(await modernState(onB, handle)).toBe('draft');
        expect([a.changes, b.changes, a.invalidations, b.invalidations]).toEqual([[], [], [], []]);

        const second = await callToolAsTask(onA, 'doc.submit', { approval_id: handle });
        await until(() => wf.runs.length === 2, 'the second task to run');
        wf.runs[1]!.finish();
        expect((await waitForTask(onB, second)).status).toBe('completed');
        expect(a.changes.map((c) => [c.handle, c.state])).toEqual([[handle, 'review']]);
        expect(await modernState(onB, handle)).toBe('not draft');
      } finally {
        await a.close();
        await b.close();
      }
    });
  }
});
