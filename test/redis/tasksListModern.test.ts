import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
  createTaskSessionFromClient,
  type JsonRpcResponse,
  type TaskSessionEndpointId,
} from '@modelcontextprotocol/ext-tasks/client';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import type { FusionApp } from '../../src/index.js';
import { modernTaskEndpoint, type TaskChannel } from '../../src/testing/index.js';
import { instance, user } from './_listInstances.js';
import { ready, redisClient, uniquePrefix } from './clients.js';

const URL_ = 'http://127.0.0.1/mcp';
const MODERN = '2026-07-28';
/** The inventory method of the io.mcp-fusion/tasks-list extension (SEP-2663 removes `tasks/list`). */
const LIST = 'io.mcp-fusion/tasks/list';

/** 2026-07-28 task channels of `caller`, one per instance, used in turn (no affinity); `sent` records which. */
function channels(apps: FusionApp[], caller: object) {
  const sent: number[] = [];
  const each = apps.map((app) => modernTaskEndpoint(URL_, { fetch: (request) => app.fetch(request, caller as never) }));
  const next = (): TaskChannel => {
    const i = sent.length % each.length;
    sent.push(i);
    return each[i]!;
  };
  return { next, sent };
}

/** The official Tasks client's raw request path over the channels in turn. */
function rawDispatch(next: () => TaskChannel) {
  return async (request: unknown): Promise<JsonRpcResponse> => {
    const { method, params } = request as { method: string; params?: Record<string, unknown> };
    try {
      return { kind: 'result', result: (await next().request(method, params ?? {})) as never };
    } catch (error) {
      const { code, message, data } = error as { code: number; message: string; data?: unknown };
      return { kind: 'error', error: { code, message, ...(data !== undefined ? { data } : {}) } as never };
    }
  };
}

/** A raw 2026-07-28 request of `method` whose envelope declares no extension: the JSON-RPC answer. */
async function undeclared(app: FusionApp, caller: object, method = LIST): Promise<unknown> {
  const _meta = {
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientInfo': { name: 'lister', version: '1.0.0' },
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  const response = await app.fetch(
    new Request(URL_, {
      method: 'POST',
      headers: {
        host: '127.0.0.1',
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': MODERN,
        'mcp-method': method,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { _meta } }),
    }),
    caller as never,
  );
  return response.json();
}

describe('the task inventory (io.mcp-fusion/tasks/list) across two instances on one Redis (2026-07-28)', () => {
  let redis: Redis;
  beforeAll(async () => {
    redis = await ready(redisClient());
  });

  it("pages the caller's own tasks started on either instance; the official Tasks client follows the listed handles", async () => {
    const prefix = uniquePrefix('listModern');
    const apps = [instance(redis, prefix), instance(redis, prefix)];
    const client = new Client({ name: 'lister', version: '1.0.0' }, { versionNegotiation: { mode: { pin: MODERN } } });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(URL_), {
        fetch: (url, init) => {
          const request = new Request(url, init);
          request.headers.set('host', '127.0.0.1');
          return apps[0]!.fetch(request, user('alice') as never);
        },
      }),
    );
    const alice = channels(apps, user('alice'));
    const bob = channels(apps, user('bob'));
    const session = createTaskSessionFromClient(client, {
      endpointId: 'lister' as TaskSessionEndpointId,
      rawDispatch: rawDispatch(alice.next),
      v2RequestFraming: {
        protocolVersion: MODERN,
        clientInfo: { name: 'lister', version: '1.0.0' },
        clientCapabilities: {},
      },
    });
    try {
      expect(client.getProtocolEra()).toBe('modern');
      // Advertised beside the tasks extension, whose own settings stay empty (the Tasks client needs that).
      expect(client.getServerCapabilities()?.extensions).toMatchObject({
        'io.modelcontextprotocol/tasks': {},
        'io.mcp-fusion/tasks-list': {},
      });
      const started: string[] = [];
      for (const name of ['one', 'two', 'three']) {
        const execution = await session.callTool('jobs.run', { name }, { task: { preference: 'require' } });
        expect(execution.kind).toBe('task');
        started.push(execution.handle!.taskId);
        await execution.detach();
      }
      const bobs = (await bob.next().request('tools/call', { name: 'jobs.run', arguments: { name: 'b' } })) as any;
      expect(bobs.resultType).toBe('task');

      // The official Tasks client has no inventory call on 2026-07-28: it refuses locally, before the wire.
      expect(session.capabilities.inventory).toBe('known-handles');
      await expect(session.listTasks()).rejects.toThrow('Server task inventory is not supported by this session');

      alice.sent.length = 0;
      const first = (await alice.next().request(LIST, {})) as any;
      expect(first.tasks).toHaveLength(2);
      expect(first.nextCursor).toEqual(expect.any(String));
      const second = (await alice.next().request(LIST, { cursor: first.nextCursor })) as any;
      expect(second.nextCursor).toBeUndefined();
      // Page one came from A, page two from B.
      expect(alice.sent).toEqual([0, 1]);
      const listed = [...first.tasks, ...second.tasks];
      expect(listed.map((t: any) => t.taskId)).toEqual(started);
      expect(listed.every((t: any) => t.status === 'working' && typeof t.ttlMs === 'number')).toBe(true);

      // A listed handle is one the Tasks client can follow.
      expect((await session.task(listed[2].taskId).snapshot()).status).toBe('working');

      expect(((await bob.next().request(LIST, {})) as any).tasks.map((t: any) => t.taskId)).toEqual([bobs.taskId]);
      await expect(bob.next().request(LIST, { cursor: first.nextCursor })).rejects.toMatchObject({
        code: -32602,
        message: expect.stringContaining('issued to another caller'),
      });
      await expect(bob.next().request(LIST, { cursor: 7 })).rejects.toMatchObject({ code: -32602 });
      // `tasks/list` itself stays removed on 2026-07-28 (SEP-2663: -32601), on every instance.
      await expect(alice.next().request('tasks/list', {})).rejects.toMatchObject({ code: -32601 });
      expect(await undeclared(apps[0]!, user('alice'), 'tasks/list')).toMatchObject({ error: { code: -32601 } });
      // A request that does not declare the tasks extension is refused as the other task methods refuse it.
      expect(await undeclared(apps[1]!, user('alice'))).toMatchObject({
        error: {
          code: -32021,
          data: { requiredCapabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } } },
        },
      });
    } finally {
      await session.close();
      await client.close();
      for (const app of apps) await app.close();
    }
  });
});
