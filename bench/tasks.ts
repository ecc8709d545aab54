/**
 * The `tasks` section: what running a tool as a task costs. Modern (2026-07-28) requests to the in-process
 * app (`app.fetch`), all declaring the Tasks extension: a plain tool, the same tool with `.task()` whose work
 * finishes at once (answered inline, no task stored), a task that is stored (memory), and `tasks/get` of it.
 */
import { createFusionApp, initFusion } from 'mcp-fusion';
import { latency, matrix, type Budget, type Contender, type Row } from './harness.js';
import { resultOf } from './modern.js';
import type { Section, SectionOptions } from './section.js';

const TABLE = 'Tasks: modern requests declaring io.modelcontextprotocol/tasks, in-process app.fetch';
const COLUMN = 'sequential';
const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } },
};

function request(method: string, params: Record<string, unknown>, name: string): () => Request {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: META } });
  const headers = {
    host: '127.0.0.1',
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': method,
    'mcp-name': name,
  };
  return () => new Request('http://127.0.0.1/mcp', { method: 'POST', headers, body });
}

export async function tasksSection(options: SectionOptions): Promise<Section> {
  const f = initFusion();
  const registry = f.registry().registerAll(
    f
      .query('echo')
      .withString('text')
      .handle(({ text }) => text),
    f
      .query('echo_task')
      .withString('text')
      .task()
      .handle(({ text }) => text),
    f
      .query('stored_task')
      .withString('text')
      .task()
      .handle(async ({ text }) => {
        // Two turns of the loop, so never settled within the call's first turn: always stored. (A 0 ms
        // timer fired first when the call started in the loop's check phase and the loop stayed busy 1 ms
        // or more: answered inline, no task, and the tasks/get row's setup failed.)
        await new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
        return text;
      }),
  );
  // A budget large enough for every stored task of the run.
  const app = createFusionApp(registry, {
    tasks: { budgets: { maxActivePerPrincipal: 1_000_000, maxActivePerProcess: 1_000_000 } },
  });
  const call = (name: string) => request('tools/call', { name, arguments: { text: 'hi' } }, name);
  let taskId = '';
  const contenders: Contender[] = [
    { name: 'plain tool', run: async () => (await app.fetch(call('echo')())).text() },
    {
      name: '.task(), work done at once (inline answer)',
      run: async () => (await app.fetch(call('echo_task')())).text(),
    },
    { name: '.task(), stored task (memory)', run: async () => (await app.fetch(call('stored_task')())).text() },
    {
      name: 'tasks/get of a stored task (memory)',
      setup: async () => {
        taskId = (await resultOf(await app.fetch(call('stored_task')()))).taskId;
        if (typeof taskId !== 'string') throw new Error('stored_task did not create a task');
      },
      run: async () => (await app.fetch(request('tasks/get', { taskId }, taskId)())).text(),
    },
  ];
  const budget: Budget = options.quick
    ? { rounds: 3, perRound: 5, warmup: 5 }
    : { rounds: 10, perRound: 50, warmup: 50 };
  options.log('  tasks: modern, sequential');
  const rows: Row[] = await latency(TABLE, COLUMN, contenders, budget);
  await app.close();
  const inline = rows.find((r) => r.contender.startsWith('.task(), work done at once'))!;
  const markdown = [
    `### ${TABLE}`,
    '',
    matrix(rows, TABLE).replace('(× bare v2)', '(× plain tool)'),
    '',
    `Goal (issue #33): a task tool whose work finishes at once costs ≤ 1.10× a plain call: ${inline.ratio.toFixed(2)}× (${inline.ratio <= 1.1 ? 'met' : 'missed'}).`,
    '`tasks/get` in Redis is one round trip (HMGET): test/redis/tasksCommands.test.ts.',
  ].join('\n');
  return { title: 'Tasks', markdown, rows };
}
