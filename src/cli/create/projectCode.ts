// The TypeScript files of the scaffold (templates.ts assembles the project around them).

/** `src/registry.ts`: the tools, the workflow, State Sync and the server options. */
export const REGISTRY = `import { initFusion, type ServeOptions, type StateSyncConfig } from 'mcp-fusion';

/** What every handler receives: the task list of the workflow instance this call acts on. */
export interface AppContext {
  tasks: string[];
}

const f = initFusion<AppContext>();

/**
 * The workflow: \`tasks.clear\` exists only once there is something to clear. Each task list is one
 * instance of it: a legacy client's session, or on the 2026-07-28 protocol (no sessions) the instance
 * named by the \`tasks_id\` the first \`tasks.add\` returns.
 */
export const fsm = f.fsm({
  id: 'tasks',
  initial: 'empty',
  states: {
    empty: { on: { ADD: 'has_tasks' } },
    has_tasks: { on: { CLEAR: 'empty' } },
  },
});

// A query: read-only. \`.bindState('*')\` joins the workflow in every state without moving it, so it reads
// the same list as the tools that change it.
const listTasks = f
  .query('tasks.list')
  .describe('List the tasks of this task list')
  .bindState('*')
  .handle((_input, ctx) => ctx.tasks);

// An action: changes something, not destructive. Sends ADD to the workflow after it succeeds.
const addTask = f
  .action('tasks.add')
  .describe('Add a task')
  .bindState(['empty', 'has_tasks'], 'ADD')
  .withString('title', 'What to do')
  .handle((input, ctx) => {
    ctx.tasks.push(input.title);
    return { added: input.title, count: ctx.tasks.length };
  });

// A mutation: destructive. Visible only in "has_tasks"; sends CLEAR.
const clearTasks = f
  .mutation('tasks.clear')
  .describe('Delete every task')
  .bindState('has_tasks', 'CLEAR')
  .handle((_input, ctx) => {
    const count = ctx.tasks.splice(0).length;
    return \`Deleted \${count} \${count === 1 ? 'task' : 'tasks'}.\`;
  });

export const registry = f.registry().registerAll(listTasks, addTask, clearTasks);

/** State Sync: the list is never cached, and every write tells the agent that tasks.* went stale. */
export const stateSync: StateSyncConfig = {
  policies: [
    { match: 'tasks.list', cacheControl: 'no-store' },
    { match: 'tasks.*', invalidates: ['tasks.*'] },
  ],
};

/** Server options over a fresh in-memory store (tests call it once per client). */
export function options(): ServeOptions<AppContext> {
  // Keyed by extra.workflow.key (the session, or the tasks_id instance), never by a shared default:
  // two clients never see or delete each other's tasks. Data that belongs to a caller rather than to a
  // workflow would be keyed by extra.principal.key. Swap the Map for your database.
  const lists = new Map<string, string[]>();
  return {
    name: 'tasks-server',
    version: '0.1.0',
    fsm,
    stateSync,
    contextFactory: (extra) => {
      const key = extra.workflow?.key;
      if (key === undefined) throw new Error('every tool of this server belongs to the "tasks" workflow (bind new tools with .bindState)');
      let tasks = lists.get(key);
      if (tasks === undefined) lists.set(key, (tasks = []));
      return { tasks };
    },
  };
}
`;

/** `src/server.ts`: serves the registry over HTTP, or stdio with `--stdio`; stops on SIGINT/SIGTERM and with npm. */
export const SERVER = `import { ServerStartError, startServer } from 'mcp-fusion';
import { options, registry } from './registry.js';

// The shell \`npm start\` runs this file under, read before the port opens: a client may connect (and npm be
// stopped) as soon as it does, before the code after startServer runs.
const parent = process.ppid;
const stdio = process.argv.includes('--stdio');
const server = await startServer(registry, {
  ...options(),
  transport: stdio ? 'stdio' : 'http',
  port: Number(process.env.PORT ?? 3000),
}).catch((error: unknown) => {
  if (!(error instanceof ServerStartError)) throw error;
  // A busy port: one line that names the port and the fix (PORT=3001 npm start), not a stack.
  console.error(error.message);
  process.exit(1);
});
// Over stdio, stdout belongs to the protocol: log to stderr.
console.error(\`listening on \${server.url}\`);

const stop = (): void => void server.close().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
// \`npm start\` runs this file under a shell, and \`kill <npm pid>\` stops npm and that shell only: under npm,
// stop as well when the parent process (the shell) is gone.
if (process.env.npm_lifecycle_event !== undefined) {
  setInterval(() => {
    if (process.ppid !== parent) stop();
  }, 250).unref();
}
`;

/** `test/registry.test.ts`: the registry through a real SDK client, in both protocol eras. */
export const TEST = `import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { createFusionApp, type FusionApp } from 'mcp-fusion';
import { createTestClient, expectInvalidation } from 'mcp-fusion/testing';
import { options, registry } from '../src/registry.js';

describe('tasks server', () => {
  it('shows tasks.clear only once there is something to clear', async () => {
    await using t = await createTestClient(registry, options());
    expect(await t.listToolNames()).toEqual(['tasks.list', 'tasks.add']);

    const added = await t.call('tasks.add', { title: 'Write the docs' });
    expect(added.content).toContainEqual({ added: 'Write the docs', count: 1 });
    expect(await t.state()).toBe('has_tasks');
    expect(await t.listToolNames()).toEqual(['tasks.list', 'tasks.add', 'tasks.clear']);
  });

  it('tells the agent what a write made stale', async () => {
    await using t = await createTestClient(registry, options());
    expectInvalidation(await t.call('tasks.add', { title: 'a' }), ['tasks.*']);
    expectInvalidation(await t.call('tasks.list'), []);
  });

  it('lists tasks.list as never cacheable', async () => {
    await using t = await createTestClient(registry, options());
    const { tools } = await t.client.listTools();
    expect(tools.find((tool) => tool.name === 'tasks.list')?.description).toContain('[Cache-Control: no-store]');
  });

  it('starts a test in any workflow state with setState', async () => {
    await using t = await createTestClient(registry, options());
    await t.setState('has_tasks');
    const cleared = await t.call('tasks.clear');
    expect(cleared.content).toContain('Deleted 0 tasks.');
    expect(await t.state()).toBe('empty');
  });

  it('keeps two modern (2026-07-28) clients apart: neither sees nor deletes the tasks of the other', async () => {
    const app = createFusionApp(registry, options());
    try {
      await using alice = await modernClient(app);
      await using bob = await modernClient(app);
      const aliceList = tasksId(await alice.callTool({ name: 'tasks.add', arguments: { title: 'Alice only' } }));
      const bobList = tasksId(await bob.callTool({ name: 'tasks.add', arguments: { title: 'Bob only' } }));
      expect(textsOf(await bob.callTool({ name: 'tasks.list', arguments: { tasks_id: bobList } }))).toContain('["Bob only"]');
      expect(textsOf(await bob.callTool({ name: 'tasks.clear', arguments: { tasks_id: bobList } }))).toContain('Deleted 1 task.');
      expect(textsOf(await alice.callTool({ name: 'tasks.list', arguments: { tasks_id: aliceList } }))).toContain('["Alice only"]');
      const noList = await bob.callTool({ name: 'tasks.list', arguments: {} });
      expect(noList.isError).toBe(true);
    } finally {
      await app.close();
    }
  });
});

/** A client on the 2026-07-28 protocol, talking to the app in process (no socket). */
async function modernClient(app: FusionApp): Promise<Client & AsyncDisposable> {
  const client = new Client({ name: 'test', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
  const fetch = (url: string | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(url, init);
    request.headers.set('host', '127.0.0.1');
    return app.fetch(request);
  };
  await client.connect(new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), { fetch }));
  expect(client.getProtocolEra()).toBe('modern');
  return Object.assign(client, { [Symbol.asyncDispose]: () => client.close() });
}

/** Every text block of a result (State Sync adds its own lines beside the handler's). */
function textsOf(result: { content?: unknown }): string[] {
  return (result.content as Array<{ type: string; text?: string }>).filter((b) => b.type === 'text').map((b) => b.text ?? '');
}

/** The tasks_id the first tasks.add returns (one task list per tasks_id). */
function tasksId(result: { content?: unknown }): string {
  const line = textsOf(result).find((t) => t.startsWith('tasks_id: '));
  if (line === undefined) throw new Error('tasks.add returned no tasks_id');
  return line.slice('tasks_id: '.length).split(' ')[0]!;
}
`;
