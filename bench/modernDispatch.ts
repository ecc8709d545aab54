import { fileURLToPath } from 'node:url';
import { drive, HTTP_N, openClient, startChild, type Cell, type Server } from './http.js';
import { quantile } from './harness.js';

/** One contender: a server process and the era its clients speak. */
interface Contender {
  readonly label: string;
  readonly server: Server;
  readonly era: 'legacy' | 'modern';
}

/** Per contender: median calls/s and server CPU µs per call over the rounds, and their ratio to the first. */
export interface DispatchRow {
  label: string;
  callsPerSec: number;
  cpuUsPerCall: number;
  rateRatio: number;
  cpuRatio: number;
}

/**
 * Modern vs legacy over HTTP on 127.0.0.1: the bare SDK's sessionful legacy server (the reference), then
 * mcp-fusion's modern and legacy legs, and (with `baseScript`, a copy of bench/http.ts in a build of an
 * earlier commit) the same two legs of that build. `clients` sequential clients each, `rounds` rounds of
 * `sliceMs`, contenders rotated every round; ratios are medians of per-round ratios to the reference.
 */
export async function modernDispatch(
  options: { clients?: number; rounds?: number; sliceMs?: number; baseScript?: string } = {},
): Promise<DispatchRow[]> {
  const { clients = 50, rounds = 5, sliceMs = 1000, baseScript } = options;
  const reference = await startChild('v2-sessions', HTTP_N);
  const fusion = await startChild('fusion', HTTP_N);
  const base = baseScript === undefined ? undefined : await startChild('fusion', HTTP_N, [], baseScript);
  const contenders: Contender[] = [
    { label: 'SDK v2 sessionful legacy (reference)', server: reference, era: 'legacy' },
    { label: 'mcp-fusion modern', server: fusion, era: 'modern' },
    { label: 'mcp-fusion legacy', server: fusion, era: 'legacy' },
    ...(base === undefined
      ? []
      : [
          { label: 'before: mcp-fusion modern', server: base, era: 'modern' as const },
          { label: 'before: mcp-fusion legacy', server: base, era: 'legacy' as const },
        ]),
  ];
  try {
    const loops = await Promise.all(
      contenders.map((c) => Promise.all(Array.from({ length: clients }, () => openClient(c.server.port, c.era)))),
    );
    for (const loop of loops) await drive(loop, 300, { latencies: [], calls: 0, ms: 0 });
    const rates: number[][] = contenders.map(() => []);
    const cpus: number[][] = contenders.map(() => []);
    for (let r = 0; r < rounds; r++) {
      for (let k = 0; k < contenders.length; k++) {
        const i = (k + r) % contenders.length;
        const cell: Cell = { latencies: [], calls: 0, ms: 0 };
        await drive(loops[i]!, sliceMs, cell, contenders[i]!.server);
        rates[i]!.push(cell.calls / (cell.ms / 1000));
        cpus[i]!.push(cell.cpuUs! / cell.calls);
      }
    }
    const ratio = (values: number[][], i: number) =>
      quantile(
        values[i]!.map((v, r) => v / values[0]![r]!),
        0.5,
      );
    return contenders.map((c, i) => ({
      label: c.label,
      callsPerSec: quantile(rates[i]!, 0.5),
      cpuUsPerCall: quantile(cpus[i]!, 0.5),
      rateRatio: ratio(rates, i),
      cpuRatio: ratio(cpus, i),
    }));
  } finally {
    for (const server of [reference, fusion, base]) server?.child.kill();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const baseScript = process.argv[2];
  const rows = await modernDispatch(baseScript === undefined ? {} : { baseScript });
  for (const row of rows) {
    console.log(
      `${row.label.padEnd(40)} ${row.callsPerSec.toFixed(0).padStart(6)} calls/s (${row.rateRatio.toFixed(2)}×)  ${row.cpuUsPerCall.toFixed(0).padStart(5)} µs CPU/call (${row.cpuRatio.toFixed(2)}×)`,
    );
  }
  process.exit(0);
}
