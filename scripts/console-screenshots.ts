// Regenerates the console screenshots of docs/console.md: starts the console test fixture's server with the dev
// console, puts a known load on it (sessions in each workflow state, calls of every kind, a few errors, a task),
// and saves the charts and the whole page from headless Chromium (Debian's, driven by playwright-core).
//   npx tsx scripts/console-screenshots.ts
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { chromium } from 'playwright-core';
import { startServer } from '../src/index.js';
import { options, registry } from '../test/console/fixture.js';

const TOKEN = 'screenshots';
const OUT = new URL('../docs/', import.meta.url);

async function client(url: string): Promise<Client> {
  const c = new Client({ name: 'screenshots', version: '1' });
  await c.connect(new StreamableHTTPClientTransport(new URL(url)));
  return c;
}

const srv = await startServer(registry, { ...options, port: 0, devConsole: { token: TOKEN, announce: () => {} } });
const clients: Client[] = [];
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 });
  await page.goto(`http://127.0.0.1:${srv.port}/console?token=${TOKEN}`);
  await page.waitForSelector('#status[data-status="live"]');
  // Three waves a few seconds apart, so that the time charts show a shape.
  for (let wave = 0; wave < 3; wave++) {
    for (let i = 0; i < 6; i++) clients.push(await client(srv.url));
    for (const [n, c] of clients.entries()) {
      if (n % 3 !== 2) await c.callTool({ name: 'cart.add', arguments: {} });
      if (n % 3 === 0) await c.callTool({ name: 'cart.pay', arguments: {} });
      for (let k = 0; k < 4 + wave * 3; k++) await c.callTool({ name: 'sprints.list', arguments: {} });
      if (n % 4 === 0) await c.callTool({ name: 'boom', arguments: {} });
      if (n % 5 === 0) await c.callTool({ name: 'sprints.create', arguments: {} });
    }
    await page.waitForTimeout(5_500);
  }
  await page.waitForSelector('#c-states g[data-state="paid"]');
  await page.waitForTimeout(2_500);
  await page.locator('#charts').screenshot({ path: new URL('console-charts.png', OUT).pathname });
  await page.click('#sessions tbody tr');
  await page.waitForSelector('#machine .state.current');
  await page.screenshot({ path: new URL('console.png', OUT).pathname });
  console.log('wrote docs/console-charts.png and docs/console.png');
} finally {
  for (const c of clients) await c.close();
  await browser.close();
  await srv.close();
}
