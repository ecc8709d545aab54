import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { Client } from '@modelcontextprotocol/client';
import { initFusion } from '../../src/index.js';
import { httpServer, v2HttpClient } from '../_helpers/clients.js';
import { ConsoleHub } from '../../src/console/ConsoleHub.js';
import { launchChromium } from './chromium.js';

const f = initFusion();
const anything = { '~standard': { version: 1, vendor: 'test', validate: (value: unknown) => ({ value }) } } as any;
const request = (client: Client, method: string, params: Record<string, unknown>): Promise<any> =>
  client.request({ method, params } as any, anything);

/** A task tool that reports 1/3 and waits for the test, then 2/3 and waits again. */
function steppedExport() {
  const waits: Array<() => void> = [];
  const step = (): Promise<void> => new Promise((resolve) => waits.push(resolve));
  const registry = f.registry().registerAll(
    f
      .action('export')
      .task({ pollIntervalMs: 10 })
      .handle(async (_input, _ctx, extra) => {
        await extra.progress(1, 3);
        await step();
        await extra.progress(2, 3);
        await step();
        return 'exported';
      }),
    f.query('plain').handle(() => 'plain'),
  );
  return { registry, release: () => waits.shift()?.() !== undefined, pending: () => waits.length };
}

describe('tasks in the dev console (Chromium)', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('lists each task as a row (id, tool, session, status, progress) that changes live, kept by the session filter', async () => {
    const tool = steppedExport();
    await using srv = await httpServer(tool.registry, { devConsole: { token: 't', announce: () => {} } });
    const page = await browser.newPage({ viewport: { width: 1280, height: 760 } });
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(srv.consoleUrl!);
    await page.waitForSelector('#status[data-status="live"]');
    await using a = await v2HttpClient(srv.url);
    await using b = await v2HttpClient(srv.url);
    await b.callTool({ name: 'plain', arguments: {} });
    const { task } = await request(a, 'tools/call', { name: 'export', arguments: {}, task: {} });
    const row = `#tasks tr[data-task="${task.taskId}"]`;
    const cells = () => page.$$eval(`${row} td`, (tds) => tds.map((td) => td.textContent));
    await page.waitForSelector(`${row} td:nth-child(5):text-is("1/3")`, { timeout: 2_000 });
    const session = a.transport?.sessionId ?? '';
    expect(session).not.toBe('');
    const [id, name, sessionCell, status, progress] = await cells();
    expect([name, status, progress]).toEqual(['export', 'working', '1/3']);
    expect(task.taskId.startsWith(id!.replace('…', ''))).toBe(true);
    expect(session.startsWith(sessionCell!.replace('…', ''))).toBe(true);
    expect(await page.getAttribute(`${row} td:first-child`, 'title')).toBe(task.taskId);

    // Live: the next progress message and the end reach the row without a reload.
    while (tool.pending() === 0) await new Promise((resolve) => setImmediate(resolve));
    tool.release();
    await page.waitForSelector(`${row} td:nth-child(5):text-is("2/3")`, { timeout: 2_000 });
    while (tool.pending() === 0) await new Promise((resolve) => setImmediate(resolve));
    tool.release();
    await page.waitForSelector(`${row}[data-status="completed"]`, { timeout: 2_000 });
    expect((await cells())[3]).toBe('completed');

    // The session filter keeps the task of the session chosen and hides it for another session.
    const other = b.transport?.sessionId ?? '';
    await page.selectOption('#f-session', session);
    await page.waitForSelector(row);
    expect(await page.$$eval('#tasks tbody tr', (trs) => trs.length)).toBe(1);
    expect(
      await page.$$eval('#timeline li[data-type="task"]', (lis) => lis.map((li) => li.textContent?.includes('export'))),
    ).toEqual([true, true]);
    await page.selectOption('#f-session', other);
    await page.waitForFunction(() => document.querySelectorAll('#tasks tbody tr').length === 0);
    expect(await page.textContent('#task-count')).toBe('0 of 1');

    // A page opened now gets the rows in its snapshot.
    const late = await browser.newPage();
    await late.goto(srv.consoleUrl!);
    await late.waitForSelector(`${row}[data-status="completed"]`, { timeout: 2_000 });
    expect(problems).toEqual([]);
  });
});

describe('the console task rows', () => {
  it('keep the attempt an event carries, the latest progress, and at most maxTasks rows', () => {
    const hub = new ConsoleHub({ maxEvents: 100, maxBytes: 1 << 20, maxEventBytes: 4096, maxTasks: 2, instance: 'i1' });
    hub.record({ type: 'task', tool: 'export', taskId: 't1', status: 'working', sessionId: 's1' });
    hub.record({ type: 'task_progress', tool: 'export', taskId: 't1', progress: '1/2', attempt: 2 });
    hub.record({ type: 'task', tool: 'export', taskId: 't2', status: 'working' });
    expect(hub.tasks().map((t) => [t.id, t.sessionId, t.status, t.progress, t.attempt, t.instance])).toEqual([
      ['t2', undefined, 'working', undefined, undefined, 'i1'],
      ['t1', 's1', 'working', '1/2', 2, 'i1'],
    ]);
    hub.record({ type: 'task', tool: 'export', taskId: 't3', status: 'failed', statusMessage: 'lease lost' });
    expect(hub.tasks().map((t) => [t.id, t.status, t.statusMessage])).toEqual([
      ['t3', 'failed', 'lease lost'],
      ['t2', 'working', undefined],
    ]);
    hub.close();
  });
});
