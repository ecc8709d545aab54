/**
 * State Sync at registry scale (issue #34, item 4): N tools where a third invalidate a namespace glob
 * (`.invalidates('domain<k>.*')`) and the rest are `.stale()`, against the bare SDK's `McpServer` with the same
 * tools; `tools/call` of an invalidating tool and `tools/list`, server side (raw JSON-RPC, legacy, in memory).
 * Standalone, for a profile: `npm run build && TSX_TSCONFIG_PATH=bench/tsconfig.json node --cpu-prof
 * --import tsx bench/registryScale.ts [call|list] [seconds] [fusion|mcp|bare]` loops one contender.
 */
import { pathToFileURL } from 'node:url';
import * as fusion from 'mcp-fusion';
import type { ToolRegistry } from 'mcp-fusion';
import { assertEcho, assertListed, bareV2, ECHO, fusionServer, McpServer, RawClient } from './fixtures.js';
import { latency, matrix, type Budget, type Contender, type Row } from './harness.js';
import type { Section, SectionOptions } from './section.js';

export const REGISTRY_SCALE =
  'State Sync at registry scale: ⅓ of the tools invalidate a namespace, the rest are .stale()';
export const SCALE_CALL = 'tools/call of an invalidating tool, raw JSON-RPC';
export const SCALE_LIST = 'tools/list, raw JSON-RPC';
export const SCALE_BARE = 'SDK v2 McpServer.registerTool';
export const SCALE_FUSION = 'mcp-fusion, inline State Sync, on a low-level Server';
export const SCALE_FUSION_MCP = 'mcp-fusion, inline State Sync, attached to an McpServer';

/** The invalidating tool every call contender invokes (tool 0: `domain0.tool0`, invalidating `domain1.*`). */
export const SCALE_CALLED = { name: 'domain0.tool0', arguments: { id: ECHO } };

/** N tools `domain<i % 50>.tool<i>`: every third invalidates the next domain's namespace, the rest are stale. */
export function syncRegistry(n: number, lib: Pick<typeof fusion, 'initFusion'> = fusion): ToolRegistry<object> {
  const f = lib.initFusion<object>();
  const registry = f.registry();
  for (let i = 0; i < n; i++) {
    const tool = f
      .query(`domain${i % 50}.tool${i}`)
      .describe(`Tool number ${i}`)
      .withString('id', 'Identifier')
      .withOptionalNumber('limit', 'Limit');
    const synced = i % 3 === 0 ? tool.invalidates(`domain${(i + 1) % 50}.*`) : tool.stale();
    registry.register(synced.handle((input) => input.id));
  }
  return registry;
}

/** An `McpServer` with nothing of its own and the registry attached (tools/list goes through the composition). */
function onMcpServer(registry: ToolRegistry<object>): McpServer {
  const server = new McpServer({ name: 'fusion-on-mcp', version: '1' });
  registry.attachToServer(server, {});
  return server;
}

/** The raw clients of every contender, connected and checked (the first answer echoes, the list is whole). */
export async function scaleClients(n: number): Promise<Array<{ name: string; raw: RawClient }>> {
  const registry = syncRegistry(n);
  const out = [
    { name: SCALE_BARE, raw: await RawClient.connect(bareV2(n)) },
    { name: SCALE_FUSION, raw: await RawClient.connect(fusionServer(registry, {})) },
    { name: SCALE_FUSION_MCP, raw: await RawClient.connect(onMcpServer(registry)) },
  ];
  for (const { name, raw } of out) {
    assertEcho(name, await raw.request('tools/call', SCALE_CALLED));
    assertListed(name, await raw.request('tools/list', {}), n);
  }
  return out;
}

export async function registryScaleSection({ quick, log }: SectionOptions): Promise<Section> {
  const n = 1000;
  const clients = await scaleClients(n);
  const rows: Row[] = [];
  const seq: Budget = quick ? { rounds: 6, perRound: 100, warmup: 200 } : { rounds: 20, perRound: 200, warmup: 500 };
  // The bare SDK lists 1,000 tools in ~40 ms: few lists suffice for a ratio near 0.001×.
  const listBudget: Budget = quick ? { rounds: 3, perRound: 2, warmup: 1 } : { rounds: 6, perRound: 5, warmup: 3 };
  const as = (method: 'tools/call' | 'tools/list'): Contender[] =>
    clients.map(({ name, raw }) => ({
      name,
      run: () => raw.request(method, method === 'tools/call' ? SCALE_CALLED : {}),
    }));
  log('  registry scale: tools/call');
  rows.push(...(await latency(REGISTRY_SCALE, SCALE_CALL, as('tools/call'), seq)));
  log('  registry scale: tools/list');
  rows.push(...(await latency(REGISTRY_SCALE, SCALE_LIST, as('tools/list'), listBudget)));
  for (const { raw } of clients) await raw.close();
  const markdown = [
    `${n.toLocaleString('en-US')} tools \`domain<i % 50>.tool<i>\`: every third declares \`.invalidates('domain<k>.*')\` (the next domain), the others \`.stale()\`; no registry policy. Every contender answers the same JSON-RPC messages over the in-memory pair (raw, legacy era, no SDK client); the called tool \`${SCALE_CALLED.name}\` invalidates \`domain1.*\`. The bare SDK registers the same tools with \`registerTool\`.`,
    '',
    matrix(rows, REGISTRY_SCALE),
  ].join('\n');
  return { title: REGISTRY_SCALE, markdown, rows };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [method = 'call', seconds = '6', who = 'fusion'] = process.argv.slice(2);
  const clients = await scaleClients(1000);
  const { raw } = clients.find(
    (c) => c.name === (who === 'bare' ? SCALE_BARE : who === 'mcp' ? SCALE_FUSION_MCP : SCALE_FUSION),
  )!;
  const params = method === 'list' ? {} : SCALE_CALLED;
  const deadline = performance.now() + Number(seconds) * 1000;
  let done = 0;
  const t0 = performance.now();
  while (performance.now() < deadline) {
    await raw.request(method === 'list' ? 'tools/list' : 'tools/call', params);
    done++;
  }
  process.stdout.write(`${who} ${method}: ${(((performance.now() - t0) * 1000) / done).toFixed(2)} µs per request\n`);
  process.exit(0);
}
