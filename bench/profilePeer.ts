/**
 * A CPU profile of one peers-benchmark server under the 50-client mix (9 `tools/call`, 1 `tools/list`):
 * `npm run -s build && npx tsx --tsconfig bench/tsconfig.json bench/profilePeer.ts <kind> <legacy|modern> [seconds] [dir]`
 * with kind one of bench/peerServe.ts' PEER_SERVERS (fusion, floor, v2-sessions, tmcp, …; `fusion+sdk-patch`: on the SDK
 * with bench/sdk-per-message.patch). The server child runs
 * under `node --cpu-prof`; when it exits this prints its requests/s and the profile's top self-time costs, by
 * function and by where the code lives (mcp-fusion's dist/, a package, Node's own, GC).
 */
import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { Agent } from 'node:http';
import { fileURLToPath } from 'node:url';
import { drive, startChild, type Era } from './http.js';
import { openMixClient, type Tally } from './peerClient.js';
import { preparePatchedSdk } from './sdkPatch.js';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Where a frame's code lives: mcp-fusion (dist/), a package under node_modules, Node's own, or V8's buckets. */
export function placeOf(url: string, functionName: string): string {
  if (url === '') return functionName.startsWith('(') ? functionName : '(native / V8)';
  if (url.startsWith('node:')) return 'node: (Node itself)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg !== null) return pkg[1]!;
  if (url.includes('/dist/')) return 'mcp-fusion (dist/)';
  if (url.includes('/bench/')) return 'bench (the server script)';
  return url;
}

/** Self time (ms) of each function and each place in a `.cpuprofile`, largest first. */
export function selfTimes(profile: Profile): { functions: [string, number][]; places: [string, number][] } {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const functions = new Map<string, number>();
  const places = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    const place = placeOf(url, functionName);
    const fn = `${functionName || '(anonymous)'} — ${place}${url === '' ? '' : `:${lineNumber + 1}`}`;
    functions.set(fn, (functions.get(fn) ?? 0) + ms);
    places.set(place, (places.get(place) ?? 0) + ms);
  });
  const sorted = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]);
  return { functions: sorted(functions), places: sorted(places) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [kind = 'fusion', era = 'legacy', seconds = '8', dir = '/tmp/peer-prof'] = process.argv.slice(2);
  const out = `${dir}/${kind}-${era}-${Date.now()}`;
  mkdirSync(out, { recursive: true });
  const script = fileURLToPath(new URL('./peerServe.ts', import.meta.url));
  // `fusion+sdk-patch`: the server on the SDK with bench/sdk-per-message.patch applied (bench/sdkPatch.ts).
  const patched = kind.endsWith('+sdk-patch');
  const server = await startChild(
    (patched ? kind.slice(0, -'+sdk-patch'.length) : kind) as never,
    100,
    [...(patched ? preparePatchedSdk() : []), '--cpu-prof', `--cpu-prof-dir=${out}`],
    script,
  );
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const tally: Tally = { ok: 0, errors: 0 };
  const open = () =>
    openMixClient(
      () => agent,
      server.port,
      era as Era,
      100,
      10,
      () => tally,
    );
  const clients = await Promise.all(Array.from({ length: 50 }, open));
  const cell = { latencies: [], calls: 0, ms: 0, cpuUs: 0 };
  await drive(clients, Number(seconds) * 1000, cell, server);
  agent.destroy();
  server.child.removeAllListeners('exit');
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.stdin!.end();
  await exited;
  // tsx's loader runs in a worker thread with its own (small) profile: the server's is the largest.
  const file = readdirSync(out)
    .filter((f) => f.endsWith('.cpuprofile'))
    .sort((a, b) => statSync(`${out}/${b}`).size - statSync(`${out}/${a}`).size)[0]!;
  const { functions, places } = selfTimes(JSON.parse(readFileSync(`${out}/${file}`, 'utf8')) as Profile);
  const total = places.reduce((s, [, ms]) => s + ms, 0);
  const busy = total - (places.find(([p]) => p === '(idle)')?.[1] ?? 0);
  const pct = (ms: number) => `${((100 * ms) / busy).toFixed(1)} %`;
  const lines = [
    `${kind} ${era}, 50 clients, ${seconds} s: ${Math.round(tally.ok / (cell.ms / 1000))} req/s, ${tally.errors} errors, server CPU ${(cell.cpuUs / tally.ok).toFixed(0)} µs per request; profile ${out}/${file}`,
    '',
    '| where (self time, share of the busy time) | ms | share |',
    '|---|---:|---:|',
    ...places.slice(0, 14).map(([p, ms]) => `| ${p} | ${ms.toFixed(0)} | ${pct(ms)} |`),
    '',
    '| function (self time) | ms | share |',
    '|---|---:|---:|',
    ...functions.slice(0, 25).map(([f, ms]) => `| ${f.replace(/\|/g, '\\|')} | ${ms.toFixed(0)} | ${pct(ms)} |`),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  process.exit(0);
}
