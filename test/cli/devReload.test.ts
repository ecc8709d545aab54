import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { texts, v2HttpClient } from '../_helpers/clients.js';
import { startDev } from './_devProcess.js';
import { repo } from './_run.js';

const folder = `test/cli/.dev-${randomUUID().slice(0, 8)}`;
const dir = join(repo, folder);
mkdirSync(dir, { recursive: true });
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// The server writes a log file beside itself on every call, as the user's did.
const registry = `import { appendFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { initFusion } from '../../../src/index.js';
import { greeting } from './helper.js';
const f = initFusion();
const instance = randomUUID();
export const registry = f.registry();
registry.registerAll(
  f.query('whoami').handle(() => {
    appendFileSync(new URL('./server.log', import.meta.url), 'whoami\\n');
    return \`\${greeting} from \${instance}\`;
  }),
);
`;
const helper = (greeting: string): string => `export const greeting = '${greeting}';\n`;

it('mcp-fusion dev reloads when an imported module changes, naming it, and not when a log or JSON file beside it does; a broken save is reloaded once fixed', async () => {
  writeFileSync(join(dir, 'registry.ts'), registry);
  writeFileSync(join(dir, 'helper.ts'), helper('hello'));
  await using dev = startDev([`${folder}/registry.ts`]);
  const url = await dev.url();
  await using client = await v2HttpClient(url);
  const [first] = texts(await client.callTool({ name: 'whoami', arguments: {} }));
  expect(first).toMatch(/^hello from /);

  // Files beside the module that it did not import: the log its tool writes, an export, a new diagram.
  for (let i = 0; i < 3; i++) await client.callTool({ name: 'whoami', arguments: {} });
  writeFileSync(join(dir, 'sessions.json'), '{"sessions":[]}');
  writeFileSync(join(dir, 'notes.log'), 'a line\n');
  mkdirSync(join(dir, 'diagrams'), { recursive: true });
  writeFileSync(join(dir, 'diagrams', 'cart.mmd'), 'stateDiagram-v2\n');
  // The same instance still answers on the same session.
  expect(texts(await client.callTool({ name: 'whoami', arguments: {} }))).toEqual([first]);

  // The positive control: the folder's events arrive in order, so a reload the files above caused would be
  // printed before (or instead of) this one — the module the registry imports.
  writeFileSync(join(dir, 'helper.ts'), helper('bonjour'));
  await dev.waitFor(/reloaded /);
  const reloads = dev.stderr().match(/^mcp-fusion dev: .* changed, reloading$/gm);
  expect(reloads).toEqual([`mcp-fusion dev: ${folder}/helper.ts changed, reloading`]);
  expect(dev.stderr().match(/reloaded /g)).toHaveLength(1);
  await using fresh = await v2HttpClient(url);
  const [after] = texts(await fresh.callTool({ name: 'whoami', arguments: {} }));
  expect(after).toMatch(/^bonjour from /);
  expect(after!.slice('bonjour'.length)).not.toBe(first!.slice('hello'.length));

  // A save that breaks the helper stops the server; the helper is still watched, so saving the fix reloads.
  writeFileSync(join(dir, 'helper.ts'), 'export const greeting = ;\n');
  await dev.waitFor(/the server stopped \(exit 1\)/);
  writeFileSync(join(dir, 'helper.ts'), helper('hallo'));
  await dev.waitFor(/reloaded [^]*reloaded /);
  expect(dev.stderr().match(/^mcp-fusion dev: .* changed, reloading$/gm)).toEqual(
    Array(3).fill(`mcp-fusion dev: ${folder}/helper.ts changed, reloading`),
  );
  await using third = await v2HttpClient(url);
  expect(texts(await third.callTool({ name: 'whoami', arguments: {} }))[0]).toMatch(/^hallo from /);
}, 90_000);
