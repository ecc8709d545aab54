import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { expect, it } from 'vitest';
import { runCli } from '../../src/cli/runCli.js';
import { texts } from '../_helpers/clients.js';
import { startDev } from './_devProcess.js';
import { fixture, repo } from './_run.js';

async function clientWith(url: string, token?: string): Promise<Client & AsyncDisposable> {
  const client = new Client({ name: 'dev-token', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(
      new URL(url),
      token === undefined ? {} : { requestInit: { headers: { Authorization: `Bearer ${token}` } } },
    ),
  );
  return Object.assign(client, { [Symbol.asyncDispose]: () => client.close() });
}

it('mcp-fusion dev --dev-token serves a scoped registry to the token it prints, and nothing to a caller without it', async () => {
  await using dev = startDev([
    fixture('scoped-registry.ts'),
    '--no-watch',
    '--dev-token',
    'dev-admin=admin,notes:write',
    '--dev-token',
    'dev-reader',
  ]);
  const url = await dev.url();
  expect(dev.stderr()).toContain('for development only');
  expect(dev.stderr()).toContain('Authorization: Bearer dev-admin   (scopes: admin notes:write)');
  expect(dev.stderr()).toContain('Authorization: Bearer dev-reader   (scopes: none)');

  {
    await using admin = await clientWith(url, 'dev-admin');
    expect((await admin.listTools()).tools.map((t) => t.name).sort()).toEqual(['admin', 'notes.delete', 'notes.list']);
    expect(texts(await admin.callTool({ name: 'notes.delete', arguments: { id: 'n1' } }))).toEqual(['deleted']);
  }
  {
    await using reader = await clientWith(url, 'dev-reader');
    expect((await reader.listTools()).tools.map((t) => t.name).sort()).toEqual(['admin', 'notes.list']);
  }
  await expect(clientWith(url)).rejects.toThrow();
  const anonymous = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  expect(anonymous.status).toBe(401);
}, 60_000);

async function dev(env: Record<string, string | undefined>, ...args: string[]) {
  let stderr = '';
  const code = await runCli(['dev', fixture('scoped-registry.ts'), '--no-watch', ...args], {
    stdout: { write: () => true },
    stderr: { write: (s: string) => (stderr += s) },
    cwd: repo,
    env,
  });
  return { code, stderr };
}

it('mcp-fusion dev --dev-token refuses to start under NODE_ENV=production, and names a malformed token', async () => {
  const production = await dev({ NODE_ENV: 'production' }, '--dev-token', 'dev-admin=admin');
  expect(production.code).toBe(2);
  expect(production.stderr).toMatch(
    /--dev-token: devTokens\(\) is for development only and refuses to run with NODE_ENV=production/,
  );
  const nameless = await dev({}, '--dev-token', '=admin');
  expect(nameless.code).toBe(2);
  expect(nameless.stderr).toContain('--dev-token "=admin" names no token');
  const twice = await dev({}, '--dev-token', 'a=x', '--dev-token', 'a=y');
  expect(twice.stderr).toContain('--dev-token "a=y" repeats the token "a"');
});
