import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import { createFusionApp, initFusion, type FusionApp } from '../../src/index.js';
import { RedisTaskStore } from '../../src/redis/index.js';
import { callToolAsTask } from '../../src/testing/index.js';
import { busInstance } from './_busInstances.js';
import { ready, redisClient, uniquePrefix } from './clients.js';

const f = initFusion();
const URL_ = 'http://127.0.0.1/mcp';
const anything = { '~standard': { version: 1, vendor: 'test', validate: (value: unknown) => ({ value }) } } as any;
const ASK = {
  mode: 'form' as const,
  message: 'Publish?',
  requestedSchema: { type: 'object' as const, properties: { ok: { type: 'boolean' as const } } },
};

/** Tools that ask the client before answering: as a plain call, as a task, and for a sample. */
function registry() {
  return f.registry().registerAll(
    f.action('ask.plain').handle(async (_input, _ctx, extra) => {
      const answer = await extra.elicit(ASK);
      return `plain: ${JSON.stringify(answer.content)}`;
    }),
    f
      .action('ask.task')
      .task({ pollIntervalMs: 20 })
      .handle(async (_input, _ctx, extra) => {
        const answer = await extra.elicit(ASK);
        return `task: ${JSON.stringify(answer.content)}`;
      }),
    f.action('ask.sample').handle(async (_input, _ctx, extra) => {
      const answer = await extra.sample({
        messages: [{ role: 'user', content: { type: 'text', text: 'Hi?' } }],
        maxTokens: 5,
      });
      return `sample: ${(answer.content as { text?: string }).text}`;
    }),
  );
}

/** One instance in this process on the shared Redis under `prefix`, with the Redis bus. */
const instance = (client: Redis, prefix: string) =>
  busInstance(client, prefix, ({ bus, sessionStore }) =>
    createFusionApp(registry(), {
      drainMs: 0,
      eventStore: false,
      sessionStore,
      tasks: { store: new RedisTaskStore({ client, prefix: `${prefix}tasks:` }), leaseMs: 120_000 },
      bus,
    }),
  );

/**
 * A 2025-11-25 SDK client (elicitation and sampling declared) whose requests and GET stream go to A and
 * whose answers to the server's requests are POSTed to B (a load balancer without affinity).
 */
async function splitClient(a: FusionApp, b: FusionApp, stream: FusionApp = a) {
  const client = new Client(
    { name: 'answers-anywhere', version: '1.0.0' },
    { capabilities: { elicitation: { form: {} }, sampling: {} } },
  );
  const answers: Array<{ to: 'B'; id: unknown }> = [];
  const asked: Array<{ method: string; meta: unknown }> = [];
  const gets: string[] = [];
  client.setRequestHandler('elicitation/create', async (request) => {
    asked.push({ method: 'elicitation/create', meta: request.params._meta });
    return { action: 'accept', content: { ok: true } };
  });
  client.setRequestHandler('sampling/createMessage', async () => {
    asked.push({ method: 'sampling/createMessage', meta: undefined });
    return { role: 'assistant', content: { type: 'text', text: 'Hello' }, model: 'test' };
  });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(URL_), {
      fetch: async (url, init) => {
        const request = new Request(url, init);
        request.headers.set('host', '127.0.0.1');
        const body = request.method === 'POST' ? await request.clone().json() : undefined;
        const answer = typeof body === 'object' && body !== null && !('method' in body) && 'id' in body;
        if (answer) answers.push({ to: 'B', id: body.id });
        if (request.method === 'GET') gets.push(stream === a ? 'A' : 'B');
        return (answer ? b : request.method === 'GET' ? stream : a).fetch(request);
      },
    }),
  );
  return { client, answers, asked, gets };
}

describe('a legacy client answers a server request on another instance (real Redis, session bus)', () => {
  let redis: Redis;
  let a: Awaited<ReturnType<typeof instance>>;
  let b: Awaited<ReturnType<typeof instance>>;
  beforeAll(async () => {
    redis = await ready(redisClient());
    const prefix = uniquePrefix('answers');
    a = await instance(redis, prefix);
    b = await instance(redis, prefix);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it("a plain call's elicitation and sampling on A, answered through B, complete the call on A", async () => {
    const { client, answers, asked } = await splitClient(a.app, b.app);
    try {
      const plain = await client.callTool({ name: 'ask.plain', arguments: {} });
      expect(plain.content).toEqual([{ type: 'text', text: 'plain: {"ok":true}' }]);
      const sampled = await client.callTool({ name: 'ask.sample', arguments: {} });
      expect(sampled.content).toEqual([{ type: 'text', text: 'sample: Hello' }]);
      expect(asked.map((q) => q.method)).toEqual(['elicitation/create', 'sampling/createMessage']);
      // Both answers went to B, under ids unique to A's session server (not the SDK's 0, 1 that B's would reuse).
      expect(answers).toHaveLength(2);
      expect(answers.every((x) => typeof x.id === 'string' && /^s-[0-9a-f]{8}-\d+$/.test(x.id as string))).toBe(true);
      expect(new Set(answers.map((x) => x.id)).size).toBe(2);
    } finally {
      await client.close();
    }
  });

  it("a task's elicitation (with its related-task _meta), answered through B, lets the task complete", async () => {
    const { client, answers, asked } = await splitClient(a.app, b.app);
    try {
      const { taskId } = await callToolAsTask(client, 'ask.task', {});
      const result = (await client.request({ method: 'tasks/result', params: { taskId } } as any, anything)) as any;
      expect(result.content).toEqual([{ type: 'text', text: 'task: {"ok":true}' }]);
      expect(asked).toEqual([
        { method: 'elicitation/create', meta: { 'io.modelcontextprotocol/related-task': { taskId } } },
      ]);
      expect(answers).toHaveLength(1);
      const task = (await client.request({ method: 'tasks/get', params: { taskId } } as any, anything)) as any;
      expect(task.status).toBe('completed');
    } finally {
      await client.close();
    }
  });

  it("a task on A asks through the session's GET stream open on B; the answer, POSTed to B, reaches A", async () => {
    const { client, answers, asked, gets } = await splitClient(a.app, b.app, b.app);
    try {
      const { taskId } = await callToolAsTask(client, 'ask.task', {});
      const result = (await client.request({ method: 'tasks/result', params: { taskId } } as any, anything)) as any;
      expect(result.content).toEqual([{ type: 'text', text: 'task: {"ok":true}' }]);
      expect(asked).toEqual([
        { method: 'elicitation/create', meta: { 'io.modelcontextprotocol/related-task': { taskId } } },
      ]);
      expect(gets[0]).toBe('B');
      expect(answers).toHaveLength(1);
    } finally {
      await client.close();
    }
  });
});
