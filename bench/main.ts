import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { createMcpHandler, McpServer, Server } from '@modelcontextprotocol/server';
import { createFusionApp } from '../src/index.js';
import { compare, table, type Row } from './harness.js';
import { connectV2, fusionRegistry, registerBare } from './fixtures.js';

const quick = process.argv.includes('--quick');
const sizes = quick ? [100] : [10, 100, 1000];
const budget = quick ? { rounds: 4, perRound: 10, warmup: 5 } : { rounds: 12, perRound: 25, warmup: 20 };
const rows: Row[] = [];

for (const n of sizes) {
  const registry = fusionRegistry(n);
  const options = {};
  // Per-request attach: what the modern era pays for every request.
  rows.push(
    ...(await compare(`attach per request, N=${n}`, [
      { name: 'SDK McpServer + registerTool×N', run: () => registerBare(new McpServer({ name: 'b', version: '1' }), n) },
      { name: 'mcp-fusion Server + attachToServer', run: () => registry.attachToServer(new Server({ name: 'f', version: '1' }, { capabilities: {} }), options) },
    ], budget)),
  );

  const bare = await connectV2(registerBare(new McpServer({ name: 'b', version: '1' }), n));
  const fusionServer = new Server({ name: 'f', version: '1' }, { capabilities: {} });
  registry.attachToServer(fusionServer, options);
  const fusion = await connectV2(fusionServer);
  const args = { name: 'domain1.tool1', arguments: { id: 'x' } };
  rows.push(
    ...(await compare(`tools/list in-memory, N=${n}`, [
      { name: 'SDK McpServer', run: () => bare.listTools() },
      { name: 'mcp-fusion', run: () => fusion.listTools() },
    ], budget)),
    ...(await compare(`tools/call in-memory, N=${n}`, [
      { name: 'SDK McpServer', run: () => bare.callTool(args) },
      { name: 'mcp-fusion', run: () => fusion.callTool(args) },
    ], budget)),
  );
  await bare.close();
  await fusion.close();

  // Modern era: one request through the SDK's per-request handler, attach included.
  const sdkHandler = createMcpHandler(() => registerBare(new McpServer({ name: 'b', version: '1' }), n), { legacy: 'reject' });
  const app = createFusionApp(registry, options);
  const body = JSON.stringify({
    jsonrpc: '2.0', id: 1, method: 'tools/call', params: { ...args, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} } },
  });
  const req = () => new Request('http://127.0.0.1/mcp', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'domain1.tool1' }, body });
  rows.push(
    ...(await compare(`modern tools/call via fetch, N=${n}`, [
      { name: 'SDK factory (McpServer per request)', run: async () => (await sdkHandler.fetch(req())).text() },
      { name: 'mcp-fusion app', run: async () => (await app.fetch(req())).text() },
    ], budget)),
  );
  await sdkHandler.close();
  await app.close();
}

const header = `Machine: ${os.cpus()[0]?.model ?? 'unknown'} ×${os.cpus().length}, ${Math.round(os.totalmem() / 2 ** 30)} GiB; Node ${process.version}; ${new Date().toISOString()}${quick ? ' (quick)' : ''}`;
const out = `${header}\n\n${table(rows)}\n`;
console.log(out);
if (!quick) writeFileSync(new URL('./RESULTS.md', import.meta.url), `# Benchmark results\n\n${out}`);
