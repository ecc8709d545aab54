import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startServer, type RunningServer } from '../../src/index.js';
import { ByteLedger } from '../../src/ledger/index.js';
import { RedisEventBus, RedisFsmStore } from '../../src/redis/index.js';
import { v2HttpClient } from '../_helpers/clients.js';
import { ready, redisClient, uniquePrefix } from '../redis/clients.js';
import { launchChromium } from './chromium.js';
import { gate, options, registry } from './fixture.js';

const TOKEN = 'deployment-token';
const INSTANCES = 4;
const SESSIONS = 50;
const KiB = 1024;
const MAX_BYTES = 256 * KiB;
const QUEUE_BYTES = 256 * KiB;

/** One instance on the shared Redis bus, with its own ledger (what its console holds is charged there). */
async function instance(prefix: string) {
  const bus = new RedisEventBus({
    publisher: await ready(redisClient()),
    subscriber: redisClient(),
    prefix: `${prefix}bus:`,
  });
  await bus.ready();
  const ledger = new ByteLedger();
  const fsmStore = new RedisFsmStore({ client: await ready(redisClient()), prefix: `${prefix}fsm:` });
  const server: RunningServer = await startServer(registry, {
    ...options,
    port: 0,
    fsm: gate,
    fsmStore,
    bus,
    heldBytes: ledger,
    devConsole: { token: TOKEN, maxBytes: MAX_BYTES, pageQueueBytes: QUEUE_BYTES, announce: () => {} },
  });
  return { server, ledger, close: async () => (await server.close(), await bus.close()) };
}

/**
 * Issue 45's deployment view: four instances share one Redis bus, 50 legacy sessions each. The console of
 * any one of them lists every instance's sessions and calls, filterable by instance, and each instance's
 * console holds no more than its byte bounds.
 */
describe('the dev console across a deployment (real Redis bus, Chromium)', { timeout: 120_000 }, () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('shows 4 instances × 50 sessions from any instance, filterable by instance, within the byte bounds', async () => {
    const prefix = uniquePrefix('deployment');
    const instances = [];
    for (let i = 0; i < INSTANCES; i++) instances.push(await instance(prefix));
    try {
      const viewer = instances[3]!;
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(error.message));
      await page.goto(viewer.server.consoleUrl!);
      await page.waitForSelector('#status[data-status="live"]');

      // 50 sessions on each instance, each adding to its cart (a transition to "full").
      const byInstance = new Map<number, string[]>();
      for (const [n, { server }] of instances.entries()) {
        const keys: string[] = [];
        for (let s = 0; s < SESSIONS; s++) {
          await using client = await v2HttpClient(server.url);
          await client.callTool({ name: 'cart.add', arguments: {} });
          keys.push(client.transport!.sessionId!);
        }
        byInstance.set(n, keys);
      }
      const all = INSTANCES * SESSIONS;
      await page.waitForFunction((n) => document.querySelectorAll('#sessions tbody tr').length === n, all, {
        timeout: 20_000,
      });
      const rows = await page.$$eval('#sessions tbody tr', (trs) =>
        trs.map((tr) => [tr.getAttribute('data-key'), tr.getAttribute('data-instance')]),
      );
      const instanceOf = new Map(rows.map(([key, where]) => [key, where]));
      // Every session of every instance, each under the instance that served it (one id per instance).
      const ids = [...byInstance.values()].map((keys) => new Set(keys.map((k) => instanceOf.get(k))));
      expect(ids.map((set) => set.size)).toEqual([1, 1, 1, 1]);
      expect(new Set(ids.map((set) => [...set][0])).size).toBe(INSTANCES);
      expect([...byInstance.values()].flat().every((key) => instanceOf.has(key))).toBe(true);

      // Filter by the first instance: its 50 sessions, and only its events in the timeline.
      const first = [...ids[0]!][0]!;
      const options_ = await page.$$eval('#f-instance option', (os) => os.map((o) => (o as HTMLOptionElement).value));
      expect(options_.filter(Boolean).sort()).toEqual(ids.map((set) => [...set][0]).sort());
      await page.selectOption('#f-instance', first);
      await page.waitForFunction((n) => document.querySelectorAll('#sessions tbody tr').length === n, SESSIONS);
      const shown = await page.$$eval('#timeline li[data-type="result"] .who', (spans) =>
        spans.map((s) => s.textContent ?? ''),
      );
      expect(shown.length).toBeGreaterThan(0);
      expect(shown.every((who) => who.endsWith(`@${first}`))).toBe(true);
      // Every session sits in "full", whichever instance served it.
      await page.selectOption('#f-instance', '');
      await page.waitForSelector(`#c-states g[data-state="full"][data-count="${all}"]`, { timeout: 5_000 });

      // What each console holds stays within its bounds: the buffer, plus the one open page's queue.
      for (const [n, { ledger }] of instances.entries())
        expect(ledger.byKind().console ?? 0).toBeLessThanOrEqual(MAX_BYTES + (n === 3 ? QUEUE_BYTES : 0));
      expect(problems).toEqual([]);
    } finally {
      for (const { close } of instances) await close();
    }
  });
});
