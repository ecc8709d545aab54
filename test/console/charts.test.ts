import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { createClock } from '../../src/testing/index.js';
import { closedOnClock, httpServer, v2HttpClient } from '../_helpers/clients.js';
import { ConsoleMetrics } from '../../src/console/ConsoleMetrics.js';
import { launchChromium } from './chromium.js';
import { options, registry } from './fixture.js';
import { sseReader } from './stream.js';

const TOKEN = 'charts-token';

/** The nearest-rank percentile, as the console computes it. */
const percentile = (ms: number[], q: number): number =>
  [...ms].sort((a, b) => a - b)[Math.min(ms.length - 1, Math.ceil(q * ms.length) - 1)]!;

/** Reads the console's event stream until `count` call results came; their tools, outcomes and durations. */
async function results(url: string, count: number): Promise<Array<{ tool: string; ok: boolean; durationMs: number }>> {
  const response = await fetch(`${url}/console/events?token=${TOKEN}`);
  const sse = sseReader(response.body!);
  const seen: Array<{ tool: string; ok: boolean; durationMs: number }> = [];
  while (seen.length < count) {
    const message = await sse.next();
    if (message.name !== 'message') continue;
    for (const { event } of JSON.parse(message.data).events) if (event.type === 'result') seen.push(event);
  }
  await sse.cancel();
  return seen;
}

describe('the console charts (Chromium)', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('draws calls, errors, latency per tool, sessions and sessions per workflow state with the numbers of a known load', async () => {
    const clock = createClock(Date.UTC(2026, 0, 1, 12, 0, 2));
    await using srv = closedOnClock(
      await httpServer(registry, { ...options, clock, devConsole: { token: TOKEN, announce: () => {} } }),
      clock,
    );
    const base = `http://127.0.0.1:${srv.port}`;
    // Four sessions: two carts full, one paid, one that only lists sprints (its cart empty).
    const clients = await Promise.all([0, 1, 2, 3].map(() => v2HttpClient(srv.url)));
    try {
      const [a, b, c, d] = clients as [
        (typeof clients)[0],
        (typeof clients)[0],
        (typeof clients)[0],
        (typeof clients)[0],
      ];
      for (const client of [a, b, c]) await client.callTool({ name: 'cart.add', arguments: {} });
      await c.callTool({ name: 'cart.pay', arguments: {} });
      for (let i = 0; i < 20; i++) await d.callTool({ name: 'sprints.list', arguments: {} });
      for (let i = 0; i < 5; i++) await a.callTool({ name: 'boom', arguments: {} });
      const seen = await results(base, 29);
      expect(seen.length).toBe(29);

      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(error.message));
      await page.goto(`${base}/console?token=${TOKEN}`);
      await page.waitForSelector('#status[data-status="live"]');
      await page.waitForSelector('#c-latency g[data-tool="sprints.list"]', { timeout: 5_000 });
      await page.waitForFunction(() => document.querySelectorAll('#c-states g[data-state]').length === 3);

      // Every call landed in the bucket of the server's clock: 29 calls, 5 errors, 4 sessions.
      const series = (id: string, key: string) =>
        page.$eval(`#${id} polyline[data-series="${key}"]`, (p) => [
          p.getAttribute('data-total'),
          p.getAttribute('data-peak'),
        ]);
      expect(await series('c-calls', 'calls')).toEqual(['29', String(Math.round((29 / 5) * 100) / 100)]);
      expect(await series('c-calls', 'errors')).toEqual(['5', '1']);
      expect(await series('c-sessions', 'sessions')).toEqual(['4', '4']);

      // Latency per tool: the calls, errors and p50/p99 of the durations the server measured.
      const tools = await page.$$eval('#c-latency g[data-tool]', (gs) =>
        gs.map((g) => ({
          tool: g.getAttribute('data-tool')!,
          calls: Number(g.getAttribute('data-calls')),
          errors: Number(g.getAttribute('data-errors')),
          p50: Number(g.getAttribute('data-p50')),
          p99: Number(g.getAttribute('data-p99')),
        })),
      );
      const expected = ['sprints.list', 'boom', 'cart.add', 'cart.pay'].map((tool) => {
        const mine = seen.filter((e) => e.tool === tool);
        const ms = mine.map((e) => e.durationMs);
        return {
          tool,
          calls: mine.length,
          errors: mine.filter((e) => !e.ok).length,
          p50: percentile(ms, 0.5),
          p99: percentile(ms, 0.99),
        };
      });
      expect(tools).toEqual(expected);
      expect(expected.map((t) => [t.tool, t.calls, t.errors])).toEqual([
        ['sprints.list', 20, 0],
        ['boom', 5, 5],
        ['cart.add', 3, 0],
        ['cart.pay', 1, 0],
      ]);

      // Sessions per workflow state: a bar per state of the machine, with its count.
      const states = await page.$$eval('#c-states g[data-state]', (gs) =>
        gs.map((g) => [g.getAttribute('data-state'), Number(g.getAttribute('data-count'))]),
      );
      expect(states).toEqual([
        ['empty', 1],
        ['full', 2],
        ['paid', 1],
      ]);

      // Five minutes on, the window is empty again: the charts forget what left it.
      await clock.advanceAsync(305_000);
      await page.waitForFunction(() => document.querySelectorAll('#c-latency g[data-tool]').length === 0, undefined, {
        timeout: 5_000,
      });
      expect(await series('c-calls', 'calls')).toEqual(['0', '0']);
      expect(problems).toEqual([]);
    } finally {
      for (const client of clients) await client.close();
    }
  });
});

describe('ConsoleMetrics, bounded whatever the load', () => {
  it('names maxTools tools (the rest as other tools), keeps samplesPerTool durations each, and drops buckets out of the window', () => {
    const clock = createClock(60_000);
    const metrics = new ConsoleMetrics(clock.now, {
      bucketMs: 1_000,
      windowMs: 10_000,
      maxTools: 2,
      samplesPerTool: 3,
    });
    const call = (tool: string, durationMs: number, ok = true, sessionId = 's1') =>
      metrics.add({
        seq: 0,
        at: clock.now(),
        instance: 'i',
        event: {
          type: 'result',
          tool,
          sessionId,
          workflowKey: undefined,
          principal: 'p',
          scopes: [],
          args: {},
          ok,
          refused: false,
          text: '',
          durationMs,
          stages: [],
          stack: undefined,
        },
      });
    for (const ms of [5, 1, 4, 2]) call('a', ms);
    call('b', 7, false, 's2');
    call('c', 9);
    call('d', 3);
    let view = metrics.view();
    expect(view.tools).toEqual([
      { tool: 'a', calls: 3, errors: 0, p50: 2, p99: 4 },
      { tool: '(other tools)', calls: 2, errors: 0, p50: 3, p99: 9 },
      { tool: 'b', calls: 1, errors: 1, p50: 7, p99: 7 },
    ]);
    expect(view.buckets).toEqual([{ at: 60_000, calls: 7, errors: 1, sessions: 2 }]);
    clock.advance(11_000);
    call('a', 1);
    view = metrics.view();
    expect(view.buckets).toEqual([{ at: 71_000, calls: 1, errors: 0, sessions: 1 }]);
    expect(view.tools).toEqual([{ tool: 'a', calls: 1, errors: 0, p50: 1, p99: 1 }]);
  });
});
