import type { Client } from '@modelcontextprotocol/client';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { createFusionApp, type AttachOptions, type FusionApp, type ToolRegistry } from 'mcp-fusion';
import {
  assertEcho,
  assertListed,
  bareV1,
  bareV2,
  callArgs,
  connectV2,
  floorServer,
  fullStackAnswer,
  fusionRegistry,
  isGated,
  fusionServer,
  groupedCallArgs,
  RawClient,
  threeMiddlewares,
  variantOptions,
  wireList,
  type Variant,
} from './fixtures.js';
import { latency, matrix, settle, throughput, type Budget, type Contender, type Row } from './harness.js';
import { modernRequest, resultOf, type FetchLike } from './modern.js';
import type { Section, SectionOptions } from './section.js';

/** Tools registered for the call benchmarks (the quick smoke run uses 100). */
export const CALL_N = 1000;
export const CALL_LATENCY = 'tools/call latency';
export const CALL_LOAD = 'tools/call throughput, 64 in flight';
export const LIST_MODERN = 'tools/list, modern era, in-process fetch';
export const LEGACY_CLIENT = 'legacy, in-memory, SDK v2 Client';
export const LEGACY_RAW = 'legacy, in-memory, raw JSON-RPC';
export const MODERN_FETCH = 'modern, in-process handler.fetch';
export const BARE = 'SDK v2 McpServer.registerTool';
/** The bare SDK against a second instance of itself: how far apart two identical contenders land in one run. */
export const BARE_AGAIN = "SDK v2 McpServer again (the run's noise)";
export const FLOOR = 'floor: v2 low-level Server, no validation';
export const FLOOR_FULL = "floor answering the full stack's result";
export const ATTACH_ONLY = 'mcp-fusion: Server + attachToServer per request, no app';
export const FULL_STACK = 'mcp-fusion + State Sync + FSM + 3 middlewares';
export const PLAIN = 'mcp-fusion';
export const SYNC = 'mcp-fusion + State Sync invalidation';

interface FusionCase {
  name: string;
  variant: Variant;
  middlewares: boolean;
}

const FUSION_CASES: FusionCase[] = [
  { name: PLAIN, variant: 'plain', middlewares: false },
  { name: SYNC, variant: 'sync', middlewares: false },
  { name: 'mcp-fusion + FSM transition', variant: 'fsm', middlewares: false },
  { name: 'mcp-fusion + 3 middlewares', variant: 'plain', middlewares: true },
  { name: 'mcp-fusion, grouped exposition', variant: 'grouped', middlewares: false },
  { name: FULL_STACK, variant: 'sync+fsm', middlewares: true },
];

/** What a call contender talks to, before it is connected. */
interface Target {
  name: string;
  server: () => { connect(t: never): Promise<void> };
  args: { name: string; arguments: Record<string, unknown> };
}

/** tools/call of a trivial handler: sequential latency and 64-in-flight throughput, both eras. */
export async function callSection({ quick, long, log }: SectionOptions): Promise<Section> {
  const n = quick ? 100 : CALL_N;
  const plain = fusionRegistry(n);
  const registries = new Map<string, ToolRegistry<object>>([['false false', plain]]);
  const registryOf = (c: FusionCase): ToolRegistry<object> => {
    const key = `${c.middlewares} ${isGated(c.variant)}`;
    let registry = registries.get(key);
    if (registry === undefined) {
      const middleware = c.middlewares ? threeMiddlewares : [];
      registries.set(key, (registry = fusionRegistry(n, { middleware, gated: isGated(c.variant) })));
    }
    return registry;
  };
  const rows: Row[] = [];
  const seq: Budget = quick ? { rounds: 10, perRound: 100, warmup: 200 } : { rounds: 20, perRound: 150, warmup: 300 };
  // The 64-in-flight ratios swing with the machine's load: many short slices (paired per round, each on a
  // collected heap, compared by calls per CPU second) keep their 95 % interval narrow, so runs give the same
  // verdict; seven 500 ms slices gave 0.61–0.97× for the same tree on a busy box.
  const load = quick
    ? { inFlight: 64, rounds: 2, sliceMs: 80, warmupMs: 40 }
    : long
      ? { inFlight: 64, rounds: 60, sliceMs: 250, warmupMs: 1000 }
      : { inFlight: 64, rounds: 30, sliceMs: 150, warmupMs: 300 };

  // What the SDK alone costs for a result as large as the full stack's (invalidation block, echo, Next line, _meta).
  const fullAnswer = await fullStackAnswer(n);
  // Legacy era, in memory. Each contender gets its own connection (and so its own workflow session).
  const targets: Target[] = [
    { name: BARE, server: () => bareV2(n), args: callArgs },
    { name: BARE_AGAIN, server: () => bareV2(n), args: callArgs },
    { name: 'SDK v1 McpServer (reference)', server: () => bareV1(n), args: callArgs },
    { name: FLOOR, server: () => floorServer(n), args: callArgs },
    { name: FLOOR_FULL, server: () => floorServer(n, undefined, fullAnswer), args: callArgs },
    ...FUSION_CASES.map((c): Target => {
      const options = variantOptions(c.variant, n);
      return {
        name: c.name,
        server: () => fusionServer(registryOf(c), options),
        args: c.variant === 'grouped' ? groupedCallArgs : callArgs,
      };
    }),
  ];
  const closers: Array<() => Promise<void>> = [];
  const viaClient = (t: Target): Contender => {
    let client: Client;
    return {
      name: t.name,
      setup: async () => {
        client = await connectV2(t.server());
        closers.push(() => client.close());
        assertEcho(t.name, await client.callTool(t.args));
      },
      run: () => client.callTool(t.args),
    };
  };
  const viaRaw = (t: Target): Contender => {
    let raw: RawClient;
    return {
      name: t.name,
      setup: async () => {
        raw = await RawClient.connect(t.server());
        closers.push(() => raw.close());
        assertEcho(t.name, await raw.request('tools/call', t.args));
      },
      run: () => raw.request('tools/call', t.args),
    };
  };
  log('  tools/call legacy: sequential');
  rows.push(...(await latency(CALL_LATENCY, LEGACY_CLIENT, targets.map(viaClient), seq)));
  log('  tools/call legacy: raw');
  rows.push(...(await latency(CALL_LATENCY, LEGACY_RAW, targets.map(viaRaw), seq)));
  log('  tools/call legacy: 64 in flight');
  rows.push(...(await throughput(CALL_LOAD, LEGACY_CLIENT, targets.map(viaClient), load)));
  log('  tools/call legacy: 64 in flight, raw');
  rows.push(...(await throughput(CALL_LOAD, LEGACY_RAW, targets.map(viaRaw), load)));
  for (const close of closers.splice(0)) await close();
  await settle(100);

  // Modern era: every request builds its server; the SDK's factory registers every tool each time.
  const apps: FusionApp[] = [];
  const handlers: Array<{ close(): Promise<void> }> = [];
  const sdkFactory = createMcpHandler(() => bareV2(n), { legacy: 'reject' });
  const tools = wireList(n);
  const floor = createMcpHandler(() => floorServer(n, tools), { legacy: 'reject' });
  const plainOptions: AttachOptions<object> = {};
  const attachOnly = createMcpHandler(() => fusionServer(plain, plainOptions), { legacy: 'reject' });
  handlers.push(sdkFactory, floor, attachOnly);
  const modernCall = modernRequest('tools/call', callArgs);
  const modernTargets: Array<{ name: string; endpoint: () => FetchLike; request: () => Promise<() => Request> }> = [
    { name: BARE, endpoint: () => sdkFactory, request: async () => modernCall },
    { name: FLOOR, endpoint: () => floor, request: async () => modernCall },
    ...FUSION_CASES.map((c) => {
      const app = createFusionApp(registryOf(c), variantOptions(c.variant, n));
      apps.push(app);
      const args = c.variant === 'grouped' ? groupedCallArgs : callArgs;
      return {
        name: c.name,
        endpoint: () => app,
        request: async () => {
          if (c.variant !== 'fsm' && c.variant !== 'sync+fsm') return modernRequest('tools/call', args);
          // A bound tool acts on a workflow instance: the first call mints its handle, later calls pass it.
          const first = await resultOf(await app.fetch(modernRequest('tools/call', args)()));
          const handle = first._meta?.['fusion/workflow']?.handle as string | undefined;
          if (handle === undefined)
            throw new Error(`${c.name}: no workflow handle in ${JSON.stringify(first).slice(0, 300)}`);
          return modernRequest('tools/call', { ...args, arguments: { ...args.arguments, bench_id: handle } });
        },
      };
    }),
    { name: ATTACH_ONLY, endpoint: () => attachOnly, request: async () => modernCall },
  ];
  const modernContenders = (): Contender[] =>
    modernTargets.map((t) => {
      let make: () => Request;
      const endpoint = t.endpoint();
      return {
        name: t.name,
        setup: async () => {
          make = await t.request();
          assertEcho(t.name, await resultOf(await endpoint.fetch(make())));
        },
        run: async () => (await endpoint.fetch(make())).text(),
      };
    });
  const modernSeq: Budget = quick ? { rounds: 3, perRound: 3, warmup: 2 } : { rounds: 10, perRound: 10, warmup: 10 };
  log('  tools/call modern: sequential');
  rows.push(...(await latency(CALL_LATENCY, MODERN_FETCH, modernContenders(), modernSeq)));
  log('  tools/call modern: 64 in flight');
  rows.push(...(await throughput(CALL_LOAD, MODERN_FETCH, modernContenders(), { ...load, rounds: quick ? 1 : 3 })));

  log('  tools/list modern');
  const modernList = modernRequest('tools/list');
  rows.push(
    ...(await latency(
      LIST_MODERN,
      `N=${n.toLocaleString('en-US')}`,
      modernTargets
        .filter((t) => !t.name.includes('middlewares') || t.name === FULL_STACK)
        .map((t): Contender => {
          const endpoint = t.endpoint();
          return {
            name: t.name,
            setup: async () => {
              const result = await resultOf(await endpoint.fetch(modernList()));
              if (!t.name.includes('grouped')) assertListed(t.name, result, n);
            },
            run: async () => (await endpoint.fetch(modernList())).text(),
          };
        }),
      modernSeq,
    )),
  );
  for (const app of apps) await app.close();
  for (const h of handlers) await h.close();
  await settle(100);

  const markdown = [
    `${n.toLocaleString('en-US')} tools registered. Every contender calls \`${callArgs.name}\` (grouped: \`domain1\` with \`action: "tool1"\`), whose handler echoes its argument; each contender's first answer is checked. The FSM rows flip a two-state machine on every call (calls of one session are serialized by design), with half of the tools bound to the machine. The row "${FLOOR_FULL}" is the floor server answering with the full stack's result (its invalidation block, the echo and the workflow's Next line listing the tools of the new state, with their \`_meta\`): what the SDK alone costs, on both sides, for a result of that size. In the modern era every request builds its server: the bare SDK row is the SDK's documented factory (a \`McpServer\` with every \`registerTool\` per request), the floor a low-level \`Server\` over precomputed data, and the mcp-fusion rows go through the whole \`createFusionApp\` (Host/Origin checks, body read, era routing, then a low-level \`Server\` with two handlers over a pipeline built once); the FSM rows pass the workflow handle minted by their first call.`,
    '',
    `### ${CALL_LATENCY}`,
    '',
    'Sequential: one call at a time.',
    '',
    matrix(rows, CALL_LATENCY),
    '',
    `### ${CALL_LOAD}`,
    '',
    `A closed loop of 64 concurrent calls (legacy: on one connection, through the SDK v2 Client and as raw JSON-RPC); higher is better; the value is the median calls/s; the ratio is the median over rounds of calls per second of CPU time ÷ the bare SDK's in the same round (${load.rounds} slices of ${load.sliceMs} ms per contender, each after a full GC; everything runs in this process, so CPU time is what a call costs, while the CPU a slice gets on a shared machine swings several-fold).`,
    '',
    matrix(rows, CALL_LOAD),
    '',
    `### ${LIST_MODERN}`,
    '',
    matrix(rows, LIST_MODERN),
  ].join('\n');
  return { title: 'tools/call', markdown, rows };
}
