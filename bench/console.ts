import { createFusionApp, startServer } from 'mcp-fusion';
import { assertEcho, bareV2, callArgs, fusionRegistry, fusionServer, RawClient } from './fixtures.js';
import { BARE } from './call.js';
import { latency, matrix, settle, type Contender, type Row } from './harness.js';
import { modernRequest, resultOf } from './modern.js';
import type { Section, SectionOptions } from './section.js';

export const CONSOLE_COST = 'tools/call with the dev console';
export const CONSOLE_OFF = 'mcp-fusion, console off';

/**
 * What the dev console costs per call: off (the default: the call path checks one `undefined` and computes
 * nothing), with a debug observer that ignores what it hears, and on with a page listening to its stream.
 */
export async function consoleSection({ quick, log }: SectionOptions): Promise<Section> {
  const n = quick ? 100 : 1000;
  const registry = fusionRegistry(n);
  const budget = quick ? { rounds: 5, perRound: 100, warmup: 200 } : { rounds: 20, perRound: 200, warmup: 500 };
  const rows: Row[] = [];

  log('  dev console: legacy, in memory');
  const closers: Array<() => Promise<void>> = [];
  const raw = (name: string, options: Parameters<typeof fusionServer>[1]): Contender => {
    let client: RawClient;
    return {
      name,
      setup: async () => {
        client = await RawClient.connect(fusionServer(registry, options));
        closers.push(() => client.close());
        assertEcho(name, await client.request('tools/call', callArgs));
      },
      run: () => client.request('tools/call', callArgs),
    };
  };
  const bare: Contender = {
    name: BARE,
    setup: async () => {
      const client = await RawClient.connect(bareV2(n));
      closers.push(() => client.close());
      bare.run = () => client.request('tools/call', callArgs);
      assertEcho(BARE, await client.request('tools/call', callArgs));
    },
    run: () => undefined,
  };
  // The bare SDK first, as in the call section: "console off" here is the same cell as its plain mcp-fusion row.
  rows.push(
    ...(await latency(
      CONSOLE_COST,
      'legacy, in-memory, raw JSON-RPC',
      [bare, raw(CONSOLE_OFF, {}), raw('mcp-fusion, debug observer (no-op)', { debug: () => {} })],
      budget,
    )),
  );
  for (const close of closers.splice(0)) await close();

  log('  dev console: modern, app.fetch');
  const off = createFusionApp(registry, {});
  const on = createFusionApp(registry, { devConsole: { token: 'bench' } });
  // A page listening: the console serializes every event onto its stream.
  const stream = await on.fetch(
    new Request('http://127.0.0.1/console/events?token=bench', { headers: { host: '127.0.0.1' } }),
    { peer: '127.0.0.1' },
  );
  const reader = stream.body!.getReader();
  void (async () => {
    while (!(await reader.read()).done);
  })();
  const call = modernRequest('tools/call', callArgs);
  const viaFetch = (name: string, app: typeof off): Contender => ({
    name,
    setup: async () => assertEcho(name, await resultOf(await app.fetch(call()))),
    run: async () => (await app.fetch(call())).text(),
  });
  rows.push(
    ...(await latency(
      CONSOLE_COST,
      'modern, in-process app.fetch',
      [viaFetch(CONSOLE_OFF, off), viaFetch('mcp-fusion, devConsole on, page listening', on)],
      budget,
    )),
  );
  await reader.cancel();
  await off.close();
  await on.close();
  await settle(100);

  log('  dev console: modern, HTTP on 127.0.0.1');
  const servers = [
    await startServer(registry, { port: 0 }),
    await startServer(registry, { port: 0, devConsole: { token: 'bench', announce: () => {} } }),
  ];
  const page = await fetch(`http://127.0.0.1:${servers[1]!.port}/console/events?token=bench`);
  const pageReader = page.body!.getReader();
  void (async () => {
    while (!(await pageReader.read()).done);
  })();
  const viaHttp = (name: string, url: string): Contender => {
    const post = modernRequest('tools/call', callArgs, url);
    return {
      name,
      setup: async () => assertEcho(name, await resultOf(await fetch(post()))),
      run: async () => (await fetch(post())).text(),
    };
  };
  rows.push(
    ...(await latency(
      CONSOLE_COST,
      'modern, HTTP on 127.0.0.1',
      [viaHttp(CONSOLE_OFF, servers[0]!.url), viaHttp('mcp-fusion, devConsole on, page listening', servers[1]!.url)],
      budget,
    )),
  );
  await pageReader.cancel();
  for (const server of servers) await server.close();
  await settle(100);

  const markdown = [
    `${n.toLocaleString('en-US')} tools registered; every contender calls \`${callArgs.name}\`. Off is the default: no observer, and the call path computes nothing for one. The observer row prices the \`result\` event alone (text, caller, stage timings); the console row adds the list the caller sees after the call, the ring buffer and the JSON sent to a listening page. Ratios are against the first row of each column: the bare SDK in the legacy column (so "console off" compares with the plain mcp-fusion row of the call section, measured before the console existed), "console off" in the others. Goal: on ≤ 1.10× off.`,
    '',
    matrix(rows, CONSOLE_COST),
  ].join('\n');
  return { title: 'The dev console', markdown, rows };
}
