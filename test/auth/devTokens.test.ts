import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { AttachError, devTokens, initFusion } from '../../src/index.js';
import { httpServer, texts } from '../_helpers/clients.js';

function scoped() {
  const f = initFusion();
  return f.registry().registerAll(
    f.query('notes.list').handle(() => 'notes'),
    f
      .mutation('notes.delete')
      .withString('id')
      .requireScopes('notes:write')
      .handle(({ id }) => `deleted ${id}`),
    f
      .tool('admin')
      .action({ name: 'stats', readOnly: true, handler: () => 'stats' })
      .action({ name: 'purge', destructive: true, requireScopes: ['admin'], handler: () => 'purged' }),
  );
}

const verifier = () => devTokens({ 'dev-admin': ['admin', 'notes:write'], 'dev-reader': [] });

/** A real SDK client over HTTP sending `token` (none: no Authorization header), with every response's status. */
async function connect(url: string, mode: 'legacy' | 'auto', token?: string) {
  const statuses: number[] = [];
  const client = new Client(
    { name: 'dev-tokens', version: '1.0.0' },
    mode === 'auto' ? { versionNegotiation: { mode: 'auto' } } : {},
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      ...(token === undefined ? {} : { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
      fetch: async (u, init) => {
        const response = await fetch(u, init);
        statuses.push(response.status);
        return response;
      },
    }),
  );
  return Object.assign(client, { statuses, [Symbol.asyncDispose]: () => client.close() });
}

describe('devTokens over HTTP, through the SDK client', () => {
  for (const mode of ['legacy', 'auto'] as const) {
    it(`${mode}: the admin token lists and calls the scoped tools; the reader sees and calls only the open ones`, async () => {
      await using srv = await httpServer(scoped(), { auth: { verifier: verifier() } });
      await using admin = await connect(srv.url, mode, 'dev-admin');
      expect((await admin.listTools()).tools.map((t) => t.name).sort()).toEqual([
        'admin',
        'notes.delete',
        'notes.list',
      ]);
      expect(texts(await admin.callTool({ name: 'notes.delete', arguments: { id: 'n1' } }))).toEqual(['deleted n1']);
      expect(texts(await admin.callTool({ name: 'admin', arguments: { action: 'purge' } }))).toEqual(['purged']);

      await using reader = await connect(srv.url, mode, 'dev-reader');
      expect((await reader.listTools()).tools.map((t) => t.name).sort()).toEqual(['admin', 'notes.list']);
      // Refused as any verified token without the scope is: the 403 scope challenge, which the SDK raises.
      await expect(reader.callTool({ name: 'notes.delete', arguments: { id: 'n1' } })).rejects.toThrow(
        /Insufficient scope: required "notes:write"/,
      );
      expect(reader.statuses.at(-1)).toBe(403);
    });
  }

  it('refuses a request without a token, or with one it was not given, with 401 and a Bearer challenge', async () => {
    await using srv = await httpServer(scoped(), { auth: { verifier: verifier() } });
    await expect(connect(srv.url, 'legacy')).rejects.toThrow();
    const init = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };
    for (const authorization of [undefined, 'Bearer dev-root', 'Bearer dev-admin2']) {
      const response = await fetch(srv.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...(authorization === undefined ? {} : { authorization }),
        },
        body: JSON.stringify(init),
      });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer /);
    }
  });
});

describe('devTokens refuses what would not be safe or would not work', () => {
  it('refuses to be created under NODE_ENV=production, naming the alternative', () => {
    const make = () => devTokens({ 'dev-admin': ['admin'] }, { env: { NODE_ENV: 'production' } });
    expect(make).toThrow(AttachError);
    expect(make).toThrow(/for development only and refuses to run with NODE_ENV=production.*jwksVerifier/);
  });

  it('names a token with a space, scopes that are not an array of words, and an empty table', () => {
    const env = { NODE_ENV: 'development' };
    expect(() => devTokens({ 'dev admin': [] }, { env })).toThrow(/token "dev admin": a token is one word/);
    expect(() => devTokens({ dev: 'admin' as never }, { env })).toThrow(/"admin" as the scopes of "dev"/);
    expect(() => devTokens({ dev: ['notes write'] }, { env })).toThrow(/scope names without spaces/);
    expect(() => devTokens({}, { env })).toThrow(/got no tokens/);
  });

  it('gives each token its own principal and scopes, and an expiry ahead', async () => {
    const info = await verifier().verifyAccessToken('dev-admin');
    expect(info).toMatchObject({ token: 'dev-admin', clientId: 'dev-admin', scopes: ['admin', 'notes:write'] });
    expect(info.extra).toEqual({ sub: 'dev-admin', iss: 'mcp-fusion:dev-tokens' });
    expect(info.expiresAt! * 1000).toBeGreaterThan(Date.now());
  });
});
