import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { isInitializeRequest, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import { createFusionApp } from 'mcp-fusion';
import { bareV1, bareV2, callArgs, ECHO, fusionRegistry, fusionServer, variantOptions } from './fixtures.js';
import { fmt, fmtRatio, type Row } from './harness.js';
import type { Section, SectionOptions } from './section.js';

export const MEMORY_SESSIONS = 'heap per idle legacy session';
export const MEMORY_TOOLS = 'heap per registered tool';
/** Tools of the server behind each session (the sessions share it in mcp-fusion; the bare SDK registers them per session). */
export const SESSION_TOOLS = 10;

type Task =
  | 'sessions:fusion'
  | 'sessions:fusion-gated'
  | 'sessions:v2'
  | 'tools:fusion'
  | 'tools:fusion-attached'
  | 'tools:v2'
  | 'tools:v1';

const LABELS: Record<Task, string> = {
  'sessions:v2': 'SDK v2 McpServer + transport per session',
  'sessions:fusion': 'mcp-fusion createFusionApp',
  'sessions:fusion-gated': 'mcp-fusion createFusionApp + State Sync + FSM gate',
  'tools:v2': 'SDK v2 McpServer.registerTool',
  'tools:v1': 'SDK v1 McpServer (reference)',
  'tools:fusion': 'mcp-fusion: built tools in a registry',
  'tools:fusion-attached': 'mcp-fusion: registry + pipeline + attached Server',
};

// ---------------------------------------------------------------------------------------------
// Child side: `node --expose-gc … bench/memory.ts --measure <task> <count>` prints `BYTES <per item>`.

const gc = (globalThis as { gc?: () => void }).gc;

async function heap(): Promise<number> {
  for (let i = 0; i < 4; i++) {
    gc!();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return process.memoryUsage().heapUsed;
}

const headers = {
  host: '127.0.0.1',
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
};

function post(app: { fetch(r: Request): Promise<Response> }, body: unknown, sid?: string): Promise<Response> {
  const h: Record<string, string> =
    sid === undefined ? { ...headers } : { ...headers, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25' };
  return app.fetch(new Request('http://127.0.0.1/mcp', { method: 'POST', headers: h, body: JSON.stringify(body) }));
}

/** A legacy session as a client leaves it when idle: handshake done, one tool call answered. */
async function openSession(app: { fetch(r: Request): Promise<Response> }): Promise<void> {
  const init = await post(app, {
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
  });
  const sid = init.headers.get('mcp-session-id');
  await init.text();
  if (sid === null) throw new Error(`initialize failed: HTTP ${init.status}`);
  await (await post(app, { jsonrpc: '2.0', method: 'notifications/initialized' }, sid)).text();
  const text = await (await post(app, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: callArgs }, sid)).text();
  if (!text.includes(ECHO)) throw new Error(`tools/call failed: ${text.slice(0, 300)}`);
}

/** The SDK's documented sessionful legacy routing as a fetch handler (a server and transport per session). */
function bareSessions(n: number): { fetch(r: Request): Promise<Response> } {
  const live = new Map<string, WebStandardStreamableHTTPServerTransport>();
  return {
    async fetch(request) {
      const sid = request.headers.get('mcp-session-id');
      const body = await request.clone().json();
      if (sid !== null) return live.get(sid)!.handleRequest(request, { parsedBody: body });
      if (!isInitializeRequest(body)) throw new Error('expected initialize');
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => void live.set(id, transport),
      });
      await bareV2(n).connect(transport);
      return transport.handleRequest(request, { parsedBody: body });
    },
  };
}

async function measure(task: Task, count: number): Promise<number> {
  if (gc === undefined) throw new Error('run with --expose-gc');
  if (task.startsWith('sessions:')) {
    const app =
      task === 'sessions:v2'
        ? bareSessions(SESSION_TOOLS)
        : createFusionApp(fusionRegistry(SESSION_TOOLS, { gated: task === 'sessions:fusion-gated' }), {
            ...(task === 'sessions:fusion-gated' ? variantOptions('sync+fsm', SESSION_TOOLS) : {}),
            // One anonymous caller opens every session here: lift the session budgets (#20) above the count measured.
            limits: { maxSessions: count + 100, maxSessionsPerPrincipal: count + 100 },
          });
    for (let i = 0; i < 20; i++) await openSession(app); // warm-up: lazily built singletons, JIT
    const before = await heap();
    for (let i = 0; i < count; i++) await openSession(app);
    const bytes = ((await heap()) - before) / count;
    if ('close' in app) await app.close();
    return bytes;
  }
  // Tools: build a small set first so that the code paths and shared schemas exist before measuring.
  const build = (k: number): unknown => {
    if (task === 'tools:v2') return bareV2(k);
    if (task === 'tools:v1') return bareV1(k);
    const registry = fusionRegistry(k);
    if (task === 'tools:fusion-attached') return fusionServer(registry, {});
    return registry;
  };
  const warm = build(10);
  const before = await heap();
  const kept = build(count);
  const after = await heap();
  if (warm === kept) throw new Error('unreachable');
  return (after - before) / count;
}

if (process.argv[2] === '--measure') {
  // `--measure <task>[,<task>…] <count>`: several tasks share one process in the quick run.
  for (const task of process.argv[3]!.split(','))
    process.stdout.write(`BYTES ${task} ${await measure(task as Task, Number(process.argv[4]))}\n`);
  process.exit(0);
}

// ---------------------------------------------------------------------------------------------
// Parent side: one fresh process per measurement, so that nothing else lives on the heap.

function runChild(tasks: readonly Task[], count: number): Promise<Map<Task, number>> {
  const child = spawn(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', fileURLToPath(import.meta.url), '--measure', tasks.join(','), String(count)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
  return new Promise((resolve, reject) => {
    child.on('exit', (code) => {
      const found = new Map<Task, number>(
        [...out.matchAll(/BYTES (\S+) (-?[\d.e+]+)/g)].map((m) => [m[1] as Task, Number(m[2])]),
      );
      if (code !== 0 || tasks.some((t) => !found.has(t)))
        reject(new Error(`memory tasks ${tasks.join(',')} failed (exit ${code}): ${out}`));
      else resolve(found);
    });
  });
}

/** Heap per idle legacy session (createFusionApp in process) and per registered tool, each in a fresh process. */
export async function memorySection({ quick, log }: SectionOptions): Promise<Section> {
  const sessions = quick ? 200 : 10_000;
  const tools = quick ? 500 : 10_000;
  const rows: Row[] = [];
  const plan: Array<[string, Task[], number]> = [
    [MEMORY_SESSIONS, ['sessions:v2', 'sessions:fusion', 'sessions:fusion-gated'], sessions],
    [MEMORY_TOOLS, ['tools:v2', 'tools:v1', 'tools:fusion', 'tools:fusion-attached'], tools],
  ];
  for (const [table, tasks, count] of plan) {
    let base: number | undefined;
    // A fresh process per measurement; the quick run shares one process per table.
    const measured = new Map<Task, number>();
    if (quick) {
      log(`  memory ${tasks.join(', ')} × ${count}`);
      for (const [task, bytes] of await runChild(tasks, count)) measured.set(task, bytes);
    }
    for (const task of tasks) {
      if (!quick) {
        log(`  memory ${task} × ${count}`);
        measured.set(task, (await runChild([task], count)).get(task)!);
      }
      const kb = measured.get(task)! / 1024;
      base ??= kb;
      rows.push({
        table,
        column: `${count.toLocaleString('en-US')} ${table === MEMORY_SESSIONS ? 'sessions' : 'tools'}`,
        contender: LABELS[task],
        value: kb,
        ratio: kb / base,
        samples: 1,
        unit: 'KB',
      });
    }
  }
  const tableOf = (table: string) => {
    const mine = rows.filter((r) => r.table === table);
    return [
      `| ${mine[0]!.column} | KB each | × bare v2 |`,
      '|---|---:|---:|',
      ...mine.map((r) => `| ${r.contender} | ${fmt(r.value)} | ${fmtRatio(r.ratio)} |`),
    ].join('\n');
  };
  const markdown = [
    `### ${MEMORY_SESSIONS}`,
    '',
    `Heap used after forced GC, divided by the number of sessions, each opened in process through the fetch handler (initialize, initialized, one tool call) and left idle (live: server and transport in memory, in-memory session and workflow stores). ${SESSION_TOOLS} tools; the bare SDK builds a \`McpServer\` and registers the tools per session, mcp-fusion shares one prebuilt pipeline.`,
    '',
    tableOf(MEMORY_SESSIONS),
    '',
    `### ${MEMORY_TOOLS}`,
    '',
    'Heap used after forced GC by N tools with two fields each (a zod schema per tool, as users write them), divided by N. mcp-fusion keeps the built tool (frozen JSON Schema, validator, compiled chain); "attached" adds the compiled surface and the pipeline.',
    '',
    tableOf(MEMORY_TOOLS),
  ].join('\n');
  return { title: 'Memory', markdown, rows };
}
