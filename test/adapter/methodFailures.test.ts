import { expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { initFusion, MemoryTaskStore } from '../../src/index.js';
import { httpServer, v2HttpClient } from '../_helpers/clients.js';

const anything = { '~standard': { version: 1, vendor: 'test', validate: (value: unknown) => ({ value }) } } as any;
const request = (client: Client, method: string, params: Record<string, unknown>): Promise<any> =>
  client.request({ method, params } as any, anything);

/** A task store whose `list` fails as a lost connection would. */
class BrokenListStore extends MemoryTaskStore {
  override async list(): Promise<never> {
    throw new Error('the task store is unreachable');
  }
}

it("logs a task method's failure once through the method wrapper, with the method and the caller", async () => {
  const f = initFusion();
  const registry = f.registry().registerAll(
    f
      .action('jobs.run')
      .task()
      .handle(() => 'done'),
  );
  const records: Array<{ level: string; message: string; fields: Record<string, unknown> }> = [];
  const record = (level: string) => (fields: Record<string, unknown>, message: string) =>
    void records.push({ level, message, fields });
  const logger = { debug: record('debug'), info: record('info'), warn: record('warn'), error: record('error') };
  await using srv = await httpServer(registry, {
    drainMs: 0,
    logger,
    logLevel: 'info',
    tasks: { store: new BrokenListStore() },
  });
  await using client = await v2HttpClient(srv.url);
  await expect(request(client, 'tasks/list', {})).rejects.toMatchObject({ code: -32603 });
  const failures = records.filter((r) => r.level === 'error');
  expect(failures.map((r) => r.message)).toEqual(['tasks/list failed']);
  expect(failures[0]!.fields).toMatchObject({
    method: 'tasks/list',
    principal: expect.any(String),
    err: expect.objectContaining({ message: 'the task store is unreachable' }),
  });
});
