// Issue #44, "a running task does not hold its session": two instances on one Redis (Redis bus, shared sessions,
// shared workflow stores), both eras, through the real clients. A bound task started on A is held running by a
// latch; meanwhile another bound call of the same session (legacy: the same Mcp-Session-Id on B) or of the same
// workflow handle (2026-07-28, on B) is answered; then the task is released. docs/tasks.md (the workflow and
// State Sync, locking): the state is checked at the task's start and the transition applied at its end, unless
// another call moved the state meanwhile, in which case the task completes with an `isError` result saying so.
import type { Client } from '@modelcontextprotocol/client';
import type { Redis } from 'ioredis';
import { beforeAll, describe, expect, it } from 'vitest';
import { createFusionApp, initFusion, type FusionApp } from '../../src/index.js';
import { RedisFsmStore, RedisTaskStore } from '../../src/redis/index.js';
import {
  callToolAsTask,
  modernTaskEndpoint,
  taskResult,
  waitForTask,
  type TaskChannel,
} from '../../src/testing/index.js';
import { until } from '../_helpers/waitFor.js';
import { busInstance, legacyClientTo, type BusInstance } from './_busInstances.js';
import { ready, redisClient, uniquePrefix } from './clients.js';

const f = initFusion();
const URL_ = 'http://127.0.0.1/mcp';
const MOVED = 'the workflow moved from "draft" to "parked" while this task ran, so its transition was not applied';

/**
 * draft --SUBMIT (`doc.submit`, a task held by a latch)--> review; draft --PARK (`doc.park`)--> parked;
 * `doc.rename` is allowed in draft and moves nothing; `doc.in_<state>` answers in its state only (the probe).
 */
function approval() {
  const latches: Array<() => void> = [];
  const gate = f.fsm({
    id: 'approval',
    initial: 'draft',
    states: { draft: { on: { SUBMIT: 'review', PARK: 'parked' } }, review: {}, parked: {} },
  });
  const registry = f.registry().registerAll(
    f
      .mutation('doc.submit')
      .bindState('draft', 'SUBMIT')
      .task({ pollIntervalMs: 20 })
      .handle(() => new Promise<string>((resolve) => latches.push(() => resolve('Submitted.')))),
    f
      .mutation('doc.rename')
      .bindState('draft')
      .handle(() => 'Renamed.'),
    f
      .mutation('doc.park')
      .bindState('draft', 'PARK')
      .handle(() => 'Parked.'),
    ...(['draft', 'review', 'parked'] as const).map((state) =>
      f
        .query(`doc.in_${state}`)
        .bindState(state)
        .handle(() => state),
    ),
  );
  return { gate, registry, latches };
}

type Approval = ReturnType<typeof approval>;

/** One instance in this process on the shared Redis under `prefix`: bus, sessions, workflows and tasks there. */
const instance = (client: Redis, prefix: string, wf: Approval): Promise<BusInstance> =>
  busInstance(client, prefix, ({ bus, sessionStore }) =>
    createFusionApp(wf.registry, {
      fsm: wf.gate,
      drainMs: 0,
      bus,
      sessionStore,
      fsmStore: new RedisFsmStore({ client, prefix: `${prefix}fsm:session:` }),
      workflowStore: new RedisFsmStore({ client, prefix: `${prefix}fsm:handle:` }),
      tasks: { store: new RedisTaskStore({ client, prefix: `${prefix}tasks:` }), leaseMs: 120_000 },
    }),
  );

const modernOn = (app: FusionApp): TaskChannel => modernTaskEndpoint(URL_, { fetch: (r) => app.fetch(r) });
const text = (result: { content?: unknown }) => (result.content as Array<{ text: string }>).map((c) => c.text);

/** The legacy session's state: the one `doc.in_<state>` its tools/list shows (read on whichever instance). */
async function legacyState(mcp: Client): Promise<string[]> {
  const tools = (await mcp.listTools()).tools.map((t) => t.name);
  return tools.filter((name) => name.startsWith('doc.in_')).map((name) => name.slice('doc.in_'.length));
}

/** The states in which a modern handle's probe answers (exactly one when the state is known). */
async function modernState(channel: TaskChannel, handle: string): Promise<string[]> {
  const states: string[] = [];
  for (const state of ['draft', 'review', 'parked']) {
    const result = await channel.request('tools/call', { name: `doc.in_${state}`, arguments: { approval_id: handle } });
    if (result.isError !== true) states.push(state);
  }
  return states;
}

const now = (state: string) => `Workflow "approval" is now in state "${state}". Next: doc.in_${state}.`;

/** The second call during the task: `doc.rename` leaves the state alone, `doc.park` moves it. */
const cases = [
  { second: 'doc.rename', answer: ['Renamed.'], final: 'review', taskError: false },
  { second: 'doc.park', answer: ['Parked.', now('parked')], final: 'parked', taskError: true },
];

describe('a running bound task does not hold its session or handle (Redis, two instances)', () => {
  let client: Redis;
  beforeAll(async () => {
    client = await ready(redisClient());
  });

  for (const { second, answer, final, taskError } of cases) {
    it(`2025-11-25: ${second} of the same session on B is answered while doc.submit runs on A; final state ${final}`, async () => {
      const wf = approval();
      const prefix = uniquePrefix('sessionfree');
      const a = await instance(client, prefix, wf);
      const b = await instance(client, prefix, wf);
      const to = { app: a.app };
      const mcp = await legacyClientTo(to, 'session-free');
      try {
        const task = await callToolAsTask(mcp, 'doc.submit');
        await until(() => wf.latches.length === 1, 'doc.submit to run on A');
        // The same Mcp-Session-Id, now to B, while the task is held running on A.
        to.app = b.app;
        const during = await mcp.callTool({ name: second, arguments: {} });
        expect(during.isError).not.toBe(true);
        expect(text(during)).toEqual(answer);
        expect(await legacyState(mcp)).toEqual([final === 'parked' ? 'parked' : 'draft']);
        expect((await waitForTask(mcp, task, { until: () => true })).status).toBe('working');
        wf.latches[0]!();
        expect((await waitForTask(mcp, task)).status).toBe('completed');
        const result = await taskResult(mcp, task);
        if (taskError) {
          // The state moved meanwhile: the transition is not applied, the handler's content comes first.
          expect(result.isError).toBe(true);
          expect(text(result)).toEqual(['Submitted.', expect.stringContaining(MOVED)]);
        } else {
          expect(result.isError).not.toBe(true);
          expect(text(result)).toEqual(['Submitted.', now('review')]);
        }
        expect(await legacyState(mcp)).toEqual([final]);
        to.app = a.app;
        expect(await legacyState(mcp)).toEqual([final]);
      } finally {
        await mcp.close();
        await a.close();
        await b.close();
      }
    });

    it(`2026-07-28: ${second} of the same handle on B is answered while doc.submit runs on A; final state ${final}`, async () => {
      const wf = approval();
      const prefix = uniquePrefix('sessionfree');
      const a = await instance(client, prefix, wf);
      const b = await instance(client, prefix, wf);
      const [onA, onB] = [modernOn(a.app), modernOn(b.app)];
      try {
        const opened = await onA.request('tools/call', { name: 'doc.in_draft', arguments: {} });
        const handle = (opened._meta as any)['fusion/workflow'].handle as string;
        const task = await callToolAsTask(onA, 'doc.submit', { approval_id: handle });
        await until(() => wf.latches.length === 1, 'doc.submit to run on A');
        const during = await onB.request('tools/call', { name: second, arguments: { approval_id: handle } });
        expect(during.isError).not.toBe(true);
        expect(text(during)).toEqual(answer);
        expect(await modernState(onB, handle)).toEqual([final === 'parked' ? 'parked' : 'draft']);
        expect((await waitForTask(onB, task, { until: () => true })).status).toBe('working');
        wf.latches[0]!();
        expect((await waitForTask(onB, task)).status).toBe('completed');
        const result = await taskResult(onB, task);
        if (taskError) {
          expect(result.isError).toBe(true);
          expect(text(result)).toEqual(['Submitted.', expect.stringContaining(MOVED)]);
        } else {
          expect(result.isError).not.toBe(true);
          expect(text(result)).toEqual(['Submitted.', now('review')]);
        }
        expect(await modernState(onA, handle)).toEqual([final]);
        expect(await modernState(onB, handle)).toEqual([final]);
      } finally {
        await a.close();
        await b.close();
      }
    });
  }
});
