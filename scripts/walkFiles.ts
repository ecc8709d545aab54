// Measures the walks of docs/contributing.md: the files of src/ one request runs, from app.fetch to its answer
// (V8's precise coverage, reset after warm-up requests, taken once the answer is read; a task's until its
// run has stored its outcome). `npx tsx scripts/walkFiles.ts [--files]` prints the count per walk (--files: the
// files too). Counts are of files, not calls: a file entered twice counts once.
import { Session } from 'node:inspector/promises';
import { relative, resolve } from 'node:path';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { createFusionApp, initFusion } from '../src/index.js';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../src');
const MODERN = '2026-07-28';
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientInfo': { name: 'walk', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

let finish: () => void = () => {};
const f = initFusion();
const registry = f.registry().registerAll(
  f
    .query('echo.say')
    .input(z.object({ text: z.string() }))
    .handle(async ({ text }) => `said ${text}`),
  f
    .query('echo.later')
    .input(z.object({ text: z.string() }))
    .task()
    .handle(async ({ text }) => {
      await new Promise<void>((done) => (finish = done));
      return `later ${text}`;
    }),
);
const app = createFusionApp(registry);
const base = { host: '127.0.0.1', accept: 'application/json, text/event-stream', 'content-type': 'application/json' };

async function post(body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  const response = await app.fetch(
    new Request('http://127.0.0.1/mcp', {
      method: 'POST',
      headers: { ...base, ...headers },
      body: JSON.stringify(body),
    }),
    { peer: '127.0.0.1' },
  );
  await response.clone().text();
  return response;
}

const init = await post({
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'walk', version: '1' } },
});
const session = { 'mcp-session-id': init.headers.get('mcp-session-id')!, 'mcp-protocol-version': '2025-11-25' };
await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, session);

let id = 1;
const legacyCall = () =>
  post(
    { jsonrpc: '2.0', id: id++, method: 'tools/call', params: { name: 'echo.say', arguments: { text: 'x' } } },
    session,
  );
const modernCall = () =>
  post(
    {
      jsonrpc: '2.0',
      id: id++,
      method: 'tools/call',
      params: { name: 'echo.say', arguments: { text: 'x' }, _meta: ENVELOPE },
    },
    { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': 'echo.say' },
  );
const legacyTask = async () => {
  await post(
    {
      jsonrpc: '2.0',
      id: id++,
      method: 'tools/call',
      params: { name: 'echo.later', arguments: { text: 'x' }, task: { ttl: 60_000 } },
    },
    session,
  );
  finish();
  for (let i = 0; i < 20; i++) await new Promise((done) => setImmediate(done));
};

const inspector = new Session();
inspector.connect();
await inspector.post('Profiler.enable');
await inspector.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });

/** The src/ files whose functions ran during `walk` (after `warm` runs of it). */
async function filesOf(walk: () => Promise<unknown>, warm = 3): Promise<string[]> {
  for (let i = 0; i < warm; i++) await walk();
  await inspector.post('Profiler.takePreciseCoverage'); // resets the counts
  await walk();
  const { result } = await inspector.post('Profiler.takePreciseCoverage');
  const files = new Set<string>();
  for (const script of result) {
    if (!script.url.startsWith('file://')) continue;
    const path = fileURLToPath(script.url);
    if (!path.startsWith(SRC)) continue;
    if (script.functions.some((fn) => fn.ranges.some((r) => r.count > 0))) files.add(relative(SRC, path));
  }
  return [...files].sort();
}

const walks: Array<[string, () => Promise<unknown>]> = [
  ['legacy tools/call', legacyCall],
  ['2026-07-28 tools/call', modernCall],
  ['legacy task (tools/call with params.task, to its stored outcome)', legacyTask],
];
for (const [name, walk] of walks) {
  const files = await filesOf(walk);
  console.log(`${name}: ${files.length} files of src/`);
  if (process.argv.includes('--files')) for (const file of files) console.log(`  ${file}`);
}
inspector.disconnect();
await app.close();
