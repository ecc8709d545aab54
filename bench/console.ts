import { createFusionApp } from 'mcp-fusion';
import { assertEcho, callArgs, fusionRegistry, fusionServer, RawClient } from './fixtures.js';
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
  rows.push(...(await latency(CONSOLE_COST, 'legacy, in-memory, raw JSON-RPC', [raw(CONSOLE_OFF, {}), raw('mcp-fusion, debug observer (no-op)', { debug: () => {} })], budget)));
  for (const close of closers.splice(0)) await close();

  log('  dev console: modern, app.fetch');
  const off = createFusionApp(registry, {});
  const on = createFusionApp(registry, { devConsole: { token: 'bench' } });
  // A page listening: the console serializes every event onto its stream.
  const stream = await on.fetch(new Request('http://127.0.0.1/console/events?token=bench', { headers: { host: '127.0.0.1' } }), { peer: '127.0.0.1' });
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
  rows.push(...(await latency(CONSOLE_COST, 'modern, in-process app.fetch', [viaFetch(CONSOLE_OFF, off), viaFetch('mcp-fusion, devConsole on, page listening', on)], budget)));
  await reader.cancel();
  await off.close();
  await on.close();
  await settle(100);

  const markdown = [
    `${n.toLocaleString('en-US')} tools registered; every contender calls \`${callArgs.name}\`. Off is the default: no observer, and the call path computes nothing for one. The observer row prices the \`result\` event alone (text, caller, stage timings); the console row adds the list the caller sees after the call, the ring buffer and the JSON sent to a listening page. Goal: on ≤ 1.10× off.`,
    '',
    matrix(rows, CONSOLE_COST),
  ].join('\n');
  return { title: 'The dev console', markdown, rows };
}
