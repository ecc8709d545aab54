// mcp-fusion's stdio transport (StdioLineTransport: lines, ids in use, oversized lines) against the SDK's own
// StdioServerTransport, both under the SDK's serveStdio with the same registry's servers: generated
// connections of either era (valid and malformed lines) must get the same messages back. A failure prints
// fast-check's seed and path; replay with EQ_SEED=<seed> EQ_PATH=<path> npx vitest run test/equivalence.
import { PassThrough } from 'node:stream';
import { serveStdio, StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { initFusion } from '../../src/index.js';
import { buildServer } from '../../src/server/buildServer.js';
import { StdioLineTransport } from '../../src/server/stdio/StdioLineTransport.js';
import { ENVELOPE, LEGACY, message } from './_requests.js';

const RUNS = Number(process.env.EQ_STDIO_RUNS ?? 250);
const f = initFusion();
const runtime = f
  .registry()
  .registerAll(
    f
      .query('echo.say')
      .input(z.object({ text: z.string() }))
      .handle(({ text }) => `said ${text}`),
  )
  .runtime({});

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 'init',
  method: 'initialize',
  params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'eq', version: '1' } },
};
const SENTINEL = (n: number) => ({ jsonrpc: '2.0', id: `sentinel-${n}`, method: 'ping' });

/** One connection's lines: the legacy handshake (or none: modern, every request with its envelope), then messages. */
const connection = fc
  .record({
    modern: fc.boolean(),
    messages: fc.array(message, { minLength: 1, maxLength: 4 }),
    odd: fc.option(fc.constantFrom('{', 'not json', '[]', '42', '{"jsonrpc":"2.0"}'), { freq: 4 }),
  })
  .map(({ modern, messages, odd }) => {
    const lines = messages.map((m, i) => {
      const out: Record<string, unknown> = { ...m };
      // Ids unique on the connection: a reused id of a running request is refused here on purpose (see
      // StdioLineTransport), which the SDK's transport does not do.
      if (typeof out.id === 'number' || typeof out.id === 'string') out.id = typeof out.id === 'number' ? i : `r${i}`;
      if (modern && typeof out.params === 'object' && out.params !== null && !Array.isArray(out.params))
        out.params = { ...(out.params as object), _meta: { ...ENVELOPE, ...(out.params as { _meta?: object })._meta } };
      return JSON.stringify(out);
    });
    if (odd !== null) lines.splice(1, 0, odd);
    return modern
      ? lines
      : [JSON.stringify(INITIALIZE), '{"jsonrpc":"2.0","method":"notifications/initialized"}', ...lines];
  });

/** Serves `lines` on one connection over `transport`, and reads every message back (up to two pings after them). */
async function served(lines: readonly string[], kind: 'fusion' | 'sdk'): Promise<string[]> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const transport =
    kind === 'fusion'
      ? new StdioLineTransport({ stdin, stdout, log: () => {} })
      : new StdioServerTransport(stdin, stdout);
  const handle = serveStdio((ctx) => buildServer(runtime, {}, ctx.era).instance, { transport, onerror: () => {} });
  const out: string[] = [];
  let buffered = '';
  let heard: (id: string) => void = () => {};
  stdout.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    for (let end = buffered.indexOf('\n'); end !== -1; end = buffered.indexOf('\n')) {
      const line = buffered.slice(0, end);
      buffered = buffered.slice(end + 1);
      const id = (JSON.parse(line) as { id?: unknown }).id;
      if (typeof id === 'string' && id.startsWith('sentinel-')) heard(id);
      else out.push(line);
    }
  });
  for (const line of lines) stdin.write(`${line}\n`);
  // Two pings in turn: every answer to the lines before them is out once the second is answered.
  for (const n of [1, 2]) {
    const answered = new Promise<string>((resolve) => (heard = resolve));
    stdin.write(`${JSON.stringify(SENTINEL(n))}\n`);
    await answered;
  }
  await handle.close();
  return out.sort();
}

describe('equivalence with the SDK over stdio', () => {
  it(`answers ${RUNS} generated connections of both eras as the SDK's stdio transport does`, async () => {
    const seed = process.env.EQ_SEED !== undefined ? Number(process.env.EQ_SEED) : undefined;
    let results = 0;
    await fc.assert(
      fc.asyncProperty(connection, async (lines) => {
        const [mine, theirs] = await Promise.all([served(lines, 'fusion'), served(lines, 'sdk')]);
        expect(mine, lines.join('\n').slice(0, 2000)).toEqual(theirs);
        results += mine.filter((line) => line.includes('"result"') && !line.includes('"id":"init"')).length;
      }),
      {
        numRuns: RUNS,
        ...(seed !== undefined ? { seed } : {}),
        ...(process.env.EQ_PATH ? { path: process.env.EQ_PATH } : {}),
      },
    );
    // Not a comparison of silences: the connections' requests were answered with results (tool calls, lists,
    // pings), not only with errors. The legacy handshake's own result is not counted: with it, the count sat
    // near 250 for 250 runs and a bound there failed by chance. Without it, seeds 1 to 8 gave 105 to 146.
    expect(results).toBeGreaterThan(RUNS / 4);
  }, 120_000);
});
