import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { expect, it } from 'vitest';
import { initFusion } from '../../src/index.js';
import { buildServer } from '../../src/server/buildServer.js';
import { texts } from '../_helpers/clients.js';

const anything = { '~standard': { version: 1, vendor: 'test', validate: (value: unknown) => ({ value }) } } as any;

it('resolves the route of a tools/call once: a plain call and a call run as a task', async () => {
  const f = initFusion();
  const registry = f.registry().registerAll(
    f.query('notes.list').handle(() => 'notes'),
    f
      .mutation('reports.generate')
      .task()
      .handle(() => 'the report'),
    f
      .tool('jobs')
      .task()
      .action({ name: 'run', handler: () => 'ran' })
      .action({ name: 'stop', handler: () => 'stopped' }),
  );
  const options = {};
  const runtime = registry.runtime(options);
  // Counts the lookups of the runtime's own route table (the surface every tools/call resolves against).
  const routes = runtime.tools.surface.routes;
  const get = routes.get.bind(routes);
  let lookups = 0;
  routes.get = (name) => (lookups++, get(name));
  // And the picks of a grouped route's action (the route and its action are resolved together, once).
  const jobs = routes.get('jobs')!;
  if (jobs.kind !== 'grouped') throw new Error('jobs is a grouped tool');
  const pick = jobs.actions.get.bind(jobs.actions);
  let picks = 0;
  jobs.actions.get = (key) => (picks++, pick(key));
  const { server } = buildServer(runtime, options, 'legacy');
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'route-once', version: '1.0.0' });
  await server.connect(serverSide);
  await client.connect(clientSide);
  try {
    lookups = 0;
    expect(texts(await client.callTool({ name: 'notes.list', arguments: {} }))).toEqual(['notes']);
    expect(lookups, 'a plain call').toBe(1);
    lookups = 0;
    const created = (await client.request(
      { method: 'tools/call', params: { name: 'reports.generate', arguments: {}, task: {} } } as any,
      anything,
    )) as any;
    expect(created.task.status).toMatch(/working|completed/);
    expect(lookups, 'a call run as a task: dispatch, declaration, required scopes and the run').toBe(1);
    lookups = 0;
    picks = 0;
    const grouped = (await client.request(
      { method: 'tools/call', params: { name: 'jobs', arguments: { action: 'run' }, task: {} } } as any,
      anything,
    )) as any;
    expect(grouped.task.status).toMatch(/working|completed/);
    expect([lookups, picks], 'a grouped call run as a task: its route and its action, each once').toEqual([1, 1]);
  } finally {
    await client.close();
    runtime.dispose();
  }
});
