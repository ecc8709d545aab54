import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { replayTranscript, type Transcript } from '../../src/testing/index.js';
import { httpServer, texts, v2HttpClient, v2HttpClientFrom } from '../_helpers/clients.js';
import { launchChromium } from './chromium.js';
import { gate, options, registry } from './fixture.js';

const TOKEN = 'console-test-token';

describe('the dev console in a real browser', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function openConsole(url: string): Promise<{ page: Page; problems: string[] }> {
    const page = await browser.newPage({ viewport: { width: 1280, height: 760 } });
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning')
        problems.push(`${message.type()}: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    await page.goto(url);
    await page.waitForSelector('#status[data-status="live"]', { timeout: 5_000 });
    return { page, problems };
  }

  it('shows calls live, highlights transitions, shows refusals as the agent read them, and exports a transcript that replays', async () => {
    let announced = '';
    await using srv = await httpServer(registry, {
      ...options,
      devConsole: { token: TOKEN, announce: (url) => (announced = url) },
    });
    expect(announced).toBe(`http://127.0.0.1:${srv.port}/console?token=${TOKEN}`);
    expect(srv.consoleUrl).toBe(announced);
    const { page, problems } = await openConsole(announced);
    await using client = await v2HttpClient(srv.url);

    // A call by an SDK client appears within a second.
    const started = performance.now();
    const added = await client.callTool({ name: 'cart.add', arguments: {} });
    await page.waitForSelector('#timeline li[data-type="result"][data-tool="cart.add"]', { timeout: 1_000 });
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(texts(added)[0]).toBe('added one item');
    expect(await page.textContent('#timeline li[data-type="result"][data-tool="cart.add"] pre.text')).toBe(
      texts(added).join('\n'),
    );

    // The transition highlights the session's new state on the machine.
    await page.click('#sessions tbody tr');
    await page.waitForSelector('#machine .state.current[data-state="full"]', { timeout: 1_000 });
    expect(
      await page.$$eval('#machine .state.current', (nodes) => nodes.map((n) => n.getAttribute('data-state'))),
    ).toEqual(['full']);
    await page.waitForFunction(
      () =>
        Array.from(document.querySelectorAll('#d-tools li'))
          .map((li) => li.textContent)
          .join(',') === 'cart.pay,cart.clear,sprints.create,sprints.list,boom',
      undefined,
      { timeout: 2_000 },
    );

    // "View as" its principal outside the session: the tools of every state (a modern client acts on handles).
    await page.click('#d-principal');
    await page.waitForSelector('#d-ptools li');
    expect(await page.$$eval('#d-ptools li', (nodes) => nodes.map((n) => n.textContent))).toEqual([
      'cart.add',
      'cart.pay',
      'cart.clear',
      'sprints.create',
      'sprints.list',
      'boom',
    ]);

    // A refusal shows exactly the text the agent read.
    const refused = await client.callTool({ name: 'cart.add', arguments: {} });
    expect(refused.isError).toBe(true);
    const agentRead = texts(refused).join('\n');
    await page.waitForSelector('#timeline li[data-type="result"][data-kind="refused"]', { timeout: 1_000 });
    expect(await page.textContent('#timeline li[data-kind="refused"] pre.text')).toBe(agentRead);

    // An invalidation names its cause, patterns and affected tools; a throwing handler shows its stack.
    await client.callTool({ name: 'sprints.create', arguments: {} });
    await page.waitForSelector('#timeline li[data-type="invalidation"]', { timeout: 1_000 });
    expect(await page.textContent('#timeline li[data-type="invalidation"] .summary')).toBe(
      'sprints.create → sprints.* → tools: sprints.create, sprints.list; resources: fusion://stale/sprints.*',
    );
    await page.waitForSelector('#timeline li[data-type="resources_updated"]', { timeout: 1_000 });
    expect(await page.textContent('#timeline li[data-type="resources_updated"] .summary')).toBe(
      'notifications/resources/updated fusion://stale/sprints.* (invalidation by sprints.create)',
    );
    await client.callTool({ name: 'boom', arguments: {} });
    await page.waitForSelector('#timeline li[data-tool="boom"] pre.stack', { timeout: 1_000 });
    expect(await page.textContent('#timeline li[data-tool="boom"] pre.stack')).toMatch(
      /^Error: the database is down\n\s+at /,
    );

    // Filters: by tool.
    await page.fill('#f-tool', 'boom');
    expect(await page.$$eval('#timeline li', (nodes) => nodes.map((n) => n.getAttribute('data-tool')))).toEqual([
      'boom',
    ]);
    await page.fill('#f-tool', '');
    // By session and by principal: a second session's call (from another peer: anonymous callers are their
    // network peer) disappears from the first one's view.
    const first = await page.getAttribute('#sessions tbody tr', 'data-key');
    {
      await using other = await v2HttpClientFrom(srv.url, '127.0.0.2');
      await other.callTool({ name: 'sprints.list', arguments: {} });
    }
    await page.waitForSelector('#timeline li[data-tool="sprints.list"]', { timeout: 1_000 });
    await page.selectOption('#f-session', first!);
    expect(
      await page.$$eval('#timeline li[data-type="result"]', (nodes) => nodes.map((n) => n.getAttribute('data-tool'))),
    ).toEqual(['boom', 'sprints.create', 'cart.add', 'cart.add']);
    await page.selectOption('#f-session', '');
    await page.selectOption('#f-principal', 'a:"peer:127.0.0.1"');
    expect(
      await page.$$eval('#timeline li[data-type="result"]', (nodes) => nodes.map((n) => n.getAttribute('data-tool'))),
    ).toEqual(['boom', 'sprints.create', 'cart.add', 'cart.add']);
    await page.selectOption('#f-principal', '');

    // Export the session as a test: the transcript replays green against the registry.
    const transcript = (await page.evaluate(async () =>
      (await fetch((document.getElementById('d-export') as HTMLAnchorElement).href)).json(),
    )) as Transcript;
    expect(transcript.steps.map((s) => `${s.tool}:${s.refused ? 'refused' : s.isError ? 'error' : 'ok'}`)).toEqual([
      'cart.add:ok',
      'cart.add:refused',
      'sprints.create:ok',
      'boom:error',
    ]);
    expect(transcript.steps[2]!.stateSync).toEqual([
      '[System: Cache invalidated for sprints.* — caused by sprints.create]',
    ]);
    expect(await replayTranscript(registry, transcript, { fsm: gate })).toEqual({ steps: 4 });

    if (process.env.CONSOLE_SCREENSHOT !== undefined)
      await page.screenshot({ path: process.env.CONSOLE_SCREENSHOT, type: 'png' });
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shows the skill the server publishes for its workflow, as a host reads it', async () => {
    await using srv = await httpServer(registry, { ...options, devConsole: { token: TOKEN, announce: () => {} } });
    const { page, problems } = await openConsole(srv.consoleUrl!);
    await using client = await v2HttpClient(srv.url);
    const { resources } = await client.listResources();
    const skill = resources.find((r) => r.uri.startsWith('skill://') && r.uri.endsWith('/SKILL.md'))!;
    const served = await client.readResource({ uri: skill.uri });
    const name = skill.uri.slice('skill://'.length, -'/SKILL.md'.length);
    const shown = await page.waitForSelector(`#skills details[data-skill="${name}"] pre`, {
      state: 'attached',
      timeout: 2_000,
    });
    expect(await shown.textContent()).toBe((served.contents[0] as { text: string }).text);
    for (const state of Object.keys(gate.config.states)) expect(await shown.textContent()).toContain(state);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('answers a wrong or missing token with 403, in the browser too', async () => {
    await using srv = await httpServer(registry, { ...options, devConsole: { token: TOKEN, announce: () => {} } });
    const base = `http://127.0.0.1:${srv.port}/console`;
    for (const url of [`${base}?token=wrong`, base, `${base}/events?token=wrong`, `${base}/transcript?key=x`]) {
      const response = await fetch(url);
      expect(response.status, url).toBe(403);
      expect(await response.text()).toMatch(/^Forbidden: wrong or missing token/);
    }
    const page = await browser.newPage();
    const response = await page.goto(`${base}?token=wrong`);
    expect(response?.status()).toBe(403);
    await page.close();
  });
});
