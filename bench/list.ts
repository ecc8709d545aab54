import type { Client } from '@modelcontextprotocol/client';
import {
  assertListed,
  bareV1,
  bareV2,
  connectV2,
  floorServer,
  fusionRegistry,
  isGated,
  fusionServer,
  RawClient,
  variantOptions,
  type Variant,
} from './fixtures.js';
import { latency, matrix, settle, type Budget, type Contender, type Row } from './harness.js';
import type { Section, SectionOptions } from './section.js';

const VARIANTS: Array<[string, Variant]> = [
  ['mcp-fusion', 'plain'],
  ['mcp-fusion + State Sync decoration', 'sync'],
  ['mcp-fusion + FSM gate (½ tools bound)', 'fsm'],
  ['mcp-fusion + State Sync + FSM gate', 'sync+fsm'],
  ['mcp-fusion, grouped exposition', 'grouped'],
];

export const LIST_CLIENT = 'tools/list, in-memory, SDK v2 Client (legacy era)';
export const LIST_RAW = 'tools/list, in-memory, raw JSON-RPC (server side only)';

function budgetFor(n: number, quick: boolean): Budget {
  if (quick) return { rounds: 3, perRound: n >= 1000 ? 2 : 10, warmup: 2 };
  if (n <= 10) return { rounds: 10, perRound: 100, warmup: 50 };
  if (n <= 100) return { rounds: 10, perRound: 30, warmup: 20 };
  if (n <= 1000) return { rounds: 10, perRound: 10, warmup: 5 };
  return { rounds: 5, perRound: 3, warmup: 2 };
}

/** tools/list at N tools: bare SDK v2 and v1, the floor, and mcp-fusion with decoration, gating, grouping. */
export async function listSection({ quick, log }: SectionOptions): Promise<Section> {
  const sizes = quick ? [100, 1000] : [10, 100, 1000, 10_000];
  const rows: Row[] = [];
  for (const n of sizes) {
    log(`  tools/list N=${n}`);
    const registries = { plain: fusionRegistry(n), gated: fusionRegistry(n, { gated: true }) };
    const servers: Array<[string, () => { connect(t: never): Promise<void> }, number | undefined]> = [
      ['SDK v2 McpServer.registerTool', () => bareV2(n), n],
      ['SDK v1 McpServer (reference)', () => bareV1(n), n],
      ['floor: v2 low-level Server, precomputed list', () => floorServer(n), n],
      ...VARIANTS.map(([name, variant]): [string, () => { connect(t: never): Promise<void> }, number | undefined] => {
        const options = variantOptions(variant, n);
        const registry = isGated(variant) ? registries.gated : registries.plain;
        return [name, () => fusionServer(registry, options), variant === 'grouped' ? undefined : n];
      }),
    ];
    const column = `N=${n.toLocaleString('en-US')}`;
    const budget = budgetFor(n, quick);

    const clients: Client[] = [];
    rows.push(
      ...(await latency(
        LIST_CLIENT,
        column,
        servers.map(([name, make, count]) => {
          let client: Client;
          return {
            name,
            setup: async () => {
              client = await connectV2(make());
              clients.push(client);
              if (count !== undefined) assertListed(name, await client.listTools(), count);
            },
            run: () => client.listTools(),
          } satisfies Contender;
        }),
        budget,
      )),
    );
    for (const c of clients) await c.close();

    const raws: RawClient[] = [];
    rows.push(
      ...(await latency(
        LIST_RAW,
        column,
        servers.map(([name, make, count]) => {
          let raw: RawClient;
          return {
            name,
            setup: async () => {
              raw = await RawClient.connect(make());
              raws.push(raw);
              if (count !== undefined) assertListed(name, await raw.request('tools/list', {}), count);
            },
            run: () => raw.request('tools/list', {}),
          } satisfies Contender;
        }),
        budget,
      )),
    );
    for (const r of raws) await r.close();
    await settle();
  }
  const markdown = [
    `### ${LIST_CLIENT}`,
    '',
    'The client parses and validates every listed tool; that cost is the same for every contender and is part of the floor.',
    '',
    matrix(rows, LIST_CLIENT),
    '',
    `### ${LIST_RAW}`,
    '',
    "JSON-RPC messages straight over the in-memory pair: the server's own cost, without the client.",
    '',
    matrix(rows, LIST_RAW),
  ].join('\n');
  return { title: 'tools/list', markdown, rows };
}
