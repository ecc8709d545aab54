/**
 * `app.node` (the adapter `startServer` uses) against the SDK's `toNodeHandler(app)` mount of the same app:
 * two node:http servers on 127.0.0.1 in this process, driven by the same keep-alive clients, alternating every
 * round. `tsx --tsconfig bench/tsconfig.json bench/nodeHandler.ts [--quick]` prints the table; `nodeHandlerSection`
 * is the section for bench/main.ts.
 */
import { createServer, type RequestListener, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createFusionApp, type FusionApp } from 'mcp-fusion';
import { fusionRegistry } from './fixtures.js';
import { fmt, fmtRatio, quantile, type Row } from './harness.js';
import { drive, HTTP_N, openClient, type Cell } from './http.js';
import type { Section, SectionOptions } from './section.js';

export const NODE_HANDLER = 'Mounting the app in node:http: app.node against the SDK toNodeHandler(app)';
const SDK = 'SDK toNodeHandler(app)';
const NODE = 'app.node';

interface Mount {
  name: string;
  app: FusionApp;
  http: HttpServer;
  port: number;
}

async function mount(name: string, make: (app: FusionApp) => RequestListener): Promise<Mount> {
  const app = createFusionApp(fusionRegistry(HTTP_N));
  const http = createServer(make(app));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return { name, app, http, port: (http.address() as AddressInfo).port };
}

async function unmount(m: Mount): Promise<void> {
  await m.app.close();
  m.http.closeAllConnections();
  await new Promise((resolve) => m.http.close(resolve));
}

/** Calls/s and p50 of both mounts, per era and client count; each ratio is the median of the per-round ratios. */
export async function nodeHandlerSection({ quick, log }: SectionOptions): Promise<Section> {
  const sliceMs = quick ? 150 : 500;
  const rounds = quick ? 1 : 9;
  const sdkMount = (app: FusionApp): RequestListener => {
    const handler = toNodeHandler(app);
    return (req, res) => void handler(req as never, res as never);
  };
  const mounts = [await mount(SDK, sdkMount), await mount(NODE, (app) => app.node)];
  const rows: Row[] = [];
  const lines = [
    '| era | clients | SDK toNodeHandler calls/s | app.node calls/s | ratio | SDK p50 µs | app.node p50 µs |',
    '|---|---:|---:|---:|---:|---:|---:|',
  ];
  try {
    for (const era of ['legacy', 'modern'] as const) {
      for (const clients of [1, 50]) {
        log(`  node handler, ${era}, ${clients} client(s)`);
        const loops = await Promise.all(
          mounts.map((m) => Promise.all(Array.from({ length: clients }, () => openClient(m.port, era)))),
        );
        for (const loop of loops) await drive(loop, quick ? 50 : 300, { latencies: [], calls: 0, ms: 0 });
        const cells = mounts.map((): Cell => ({ latencies: [], calls: 0, ms: 0 }));
        const ratios: number[] = [];
        for (let r = 0; r < rounds; r++) {
          const rates = [0, 0];
          for (let k = 0; k < mounts.length; k++) {
            const i = (k + r) % mounts.length;
            const one: Cell = { latencies: [], calls: 0, ms: 0 };
            await drive(loops[i]!, sliceMs, one);
            rates[i] = one.calls / (one.ms / 1000);
            cells[i]!.latencies.push(...one.latencies);
            cells[i]!.calls += one.calls;
            cells[i]!.ms += one.ms;
          }
          ratios.push(rates[1]! / rates[0]!);
        }
        const ratio = quantile(ratios, 0.5);
        const [sdk, node] = cells.map((c) => ({ rate: c.calls / (c.ms / 1000), p50: quantile(c.latencies, 0.5) }));
        const column = `${era}, ${clients} client${clients === 1 ? '' : 's'}`;
        rows.push({
          table: NODE_HANDLER,
          column,
          contender: SDK,
          value: sdk!.rate,
          ratio: 1,
          samples: cells[0]!.calls,
          unit: 'calls/s',
        });
        rows.push({
          table: NODE_HANDLER,
          column,
          contender: NODE,
          value: node!.rate,
          ratio,
          samples: cells[1]!.calls,
          unit: 'calls/s',
        });
        lines.push(
          `| ${era} | ${clients} | ${fmt(sdk!.rate)} | ${fmt(node!.rate)} | ${fmtRatio(ratio)} | ${fmt(sdk!.p50)} | ${fmt(node!.p50)} |`,
        );
      }
    }
  } finally {
    await Promise.all(mounts.map(unmount));
  }
  const markdown = [
    `### ${NODE_HANDLER}`,
    '',
    'Both mounts serve the same registry in this process; the load generator shares the process, so the ratio (calls/s of app.node ÷ the SDK mount, median of per-round ratios) is the figure to read, not the absolute rates.',
    '',
    ...lines,
  ].join('\n');
  return { title: NODE_HANDLER, markdown, rows };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const section = await nodeHandlerSection({
    quick: process.argv.includes('--quick'),
    log: (line) => process.stderr.write(`${line}\n`),
  });
  process.stdout.write(`${section.markdown}\n`);
  process.exit(0);
}
