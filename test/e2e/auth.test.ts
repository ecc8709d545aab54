import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createFusionApp, initFusion, jwksVerifier, type HandlerExtra } from '../../src/index.js';
import { httpServer, texts, type Mode } from '../_helpers/clients.js';
import { startIssuer, type TestIssuer } from '../auth/issuer.js';
import { registry as workspace, workspaceOptions } from '../../examples/workspace/registry.js';
import { freePort } from '../_helpers/freePort.js';

/** Notes anyone may read; deleting needs notes:write; the admin tool's purge action needs admin. */
function notesRegistry() {
  const f = initFusion<{ who: unknown }>();
  const list = f
    .query('notes.list')
    .describe('List notes')
    .handle((_i, ctx) => `notes of ${String(ctx.who)}`);
  const remove = f
    .mutation('notes.delete')
    .describe('Delete a note')
    .withString('id')
    .requireScopes('notes:write')
    .handle(({ id }) => `deleted ${id}`);
  const admin = f
    .tool('admin')
    .describe('Administration')
    .action({ name: 'stats', readOnly: true, handler: () => 'stats' })
    .action({
      name: 'purge',
      destructive: true,
      requireScopes: ['admin'],
      schema: z.object({ days: z.number() }),
      handler: ({ days }) => `purged ${days}`,
    });
  const registry = f.registry();
  registry.registerAll(list, remove, admin);
  return {
    registry,
    contextFactory: (extra: HandlerExtra) => ({
      who: (extra.authInfo as { extra?: { sub?: string } } | undefined)?.extra?.sub,
    }),
  };
}

async function serve(issuer: TestIssuer, port: number, options: Record<string, unknown> = {}) {
  const { registry, contextFactory } = notesRegistry();
  const resource = `http://127.0.0.1:${port}/mcp`;
  return httpServer(registry, {
    port,
    contextFactory,
    auth: {
      verifier: jwksVerifier({ jwksUrl: issuer.jwksUrl, issuer: issuer.issuer, audience: resource }),
      resourceMetadata: { authorizationServers: [issuer.issuer], scopesSupported: ['notes:write', 'admin'] },
    },
    ...options,
  });
}

async function clientWith(
  url: string,
  token: string,
  mode: Mode,
): Promise<Client & AsyncDisposable & { statuses: number[] }> {
  const statuses: number[] = [];
  const client = new Client(
    { name: 'auth-test', version: '1.0.0' },
    mode === 'auto' ? { versionNegotiation: { mode: 'auto' } } : {},
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
      fetch: async (u, init) => {
        const response = await fetch(u, init);
        statuses.push(response.status);
        return response;
      },
    }),
  );
  return Object.assign(client, { statuses, [Symbol.asyncDispose]: () => client.close() });
}

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  });
const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

describe('an OAuth-protected endpoint (resource server)', () => {
  it('answers a request without a token, with a bad one or an expired one with 401 and a challenge naming the metadata document', async () => {
    const port = await freePort();
    await using issuer = await startIssuer(`http://127.0.0.1:${port}/mcp`);
    await using srv = await serve(issuer, port);
    const metadataUrl = `http://127.0.0.1:${port}/.well-known/oauth-protected-resource/mcp`;
    const tokens = [
      undefined,
      'garbage',
      await issuer.token({ sub: 'alice', expiresIn: -120 }),
      await issuer.token({ sub: 'alice', aud: 'https://elsewhere.example/mcp' }),
    ];
    for (const token of tokens) {
      const response = await post(srv.url, initialize, token === undefined ? {} : { authorization: `Bearer ${token}` });
      expect(response.status).toBe(401);
      const challenge = response.headers.get('www-authenticate')!;
      expect(challenge).toMatch(/^Bearer error="invalid_token"/);
      expect(challenge).toContain(`resource_metadata="${metadataUrl}"`);
    }
    const doc = await fetch(metadataUrl);
    expect(doc.status).toBe(200);
    expect(await doc.json()).toEqual({
      resource: `http://127.0.0.1:${port}/mcp`,
      authorization_servers: [issuer.issuer],
      scopes_supported: ['notes:write', 'admin'],
    });
  });

  it('refuses a token without the scopes every request needs (requiredScopes) with 403, and names no metadata document it does not serve', async () => {
    const port = await freePort();
    await using issuer = await startIssuer(resourceUrl(port));
    const { registry } = notesRegistry();
    await using srv = await httpServer(registry, {
      port,
      auth: {
        verifier: jwksVerifier({ jwksUrl: issuer.jwksUrl, issuer: issuer.issuer, audience: resourceUrl(port) }),
        requiredScopes: ['mcp'],
      },
    });
    const without = await post(srv.url, initialize, {
      authorization: `Bearer ${await issuer.token({ sub: 'alice', scope: 'notes:read' })}`,
    });
    expect(without.status).toBe(403);
    expect(without.headers.get('www-authenticate')).toBe(
      'Bearer error="insufficient_scope", error_description="Insufficient scope", scope="mcp"',
    );
    const withScope = await post(srv.url, initialize, {
      authorization: `Bearer ${await issuer.token({ sub: 'alice', scope: 'mcp' })}`,
    });
    expect(withScope.status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${port}/.well-known/oauth-protected-resource/mcp`)).status).toBe(404);
  });

  it('warns at startup when tools require scopes but nothing authenticates the callers', async () => {
    const warnings: string[] = [];
    const app = createFusionApp(notesRegistry().registry, { onWarning: (m) => warnings.push(m) });
    await app.close();
    expect(warnings).toEqual([
      '[mcp-fusion] notes.delete, admin.purge require OAuth scopes but the app has no auth option: unless your host passes a verified authInfo to app.fetch, no caller holds a scope and they stay hidden. Set auth: { verifier } (see docs/auth.md).',
    ]);
  });

  for (const mode of ['legacy', 'auto'] as const) {
    it(`${mode}: shows a principal only the tools and actions its scopes allow, and refuses the others with a 403 scope challenge`, async () => {
      const port = await freePort();
      await using issuer = await startIssuer(`http://127.0.0.1:${port}/mcp`);
      await using srv = await serve(issuer, port, { toolExposition: 'grouped' });
      await using reader = await clientWith(srv.url, await issuer.token({ sub: 'alice', scope: 'notes:read' }), mode);
      await using writer = await clientWith(
        srv.url,
        await issuer.token({ sub: 'bob', scope: 'notes:write admin' }),
        mode,
      );
      expect(reader.getProtocolEra?.() ?? 'legacy').toBe(mode === 'auto' ? 'modern' : 'legacy');

      const readerTools = await reader.listTools();
      const writerTools = await writer.listTools();
      const actions = (list: typeof readerTools, name: string) =>
        (list.tools.find((t) => t.name === name)!.inputSchema.properties!.action as { enum: string[] }).enum;
      expect(readerTools.tools.map((t) => t.name)).toEqual(['notes', 'admin']);
      expect(actions(readerTools, 'notes')).toEqual(['list']);
      expect(actions(readerTools, 'admin')).toEqual(['stats']);
      expect(readerTools.tools.find((t) => t.name === 'admin')!.description).not.toContain('purge');
      expect(actions(writerTools, 'notes')).toEqual(['list', 'delete']);
      expect(actions(writerTools, 'admin')).toEqual(['stats', 'purge']);
      if (mode === 'auto') expect((readerTools as { cacheScope?: string }).cacheScope).toBe('private');

      expect(texts(await reader.callTool({ name: 'admin', arguments: { action: 'stats' } }))).toEqual(['stats']);
      expect(texts(await writer.callTool({ name: 'admin', arguments: { action: 'purge', days: 3 } }))).toEqual([
        'purged 3',
      ]);
      const refused = await reader.callTool({ name: 'admin', arguments: { action: 'purge', days: 3 } }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(refused).toBeDefined();
      expect(reader.statuses.at(-1)).toBe(403);
    });
  }

  it('answers a forbidden call with the SDK scope challenge: 403, insufficient_scope and the scopes to ask for', async () => {
    const port = await freePort();
    await using issuer = await startIssuer(`http://127.0.0.1:${port}/mcp`);
    await using srv = await serve(issuer, port);
    const token = await issuer.token({ sub: 'alice', scope: 'notes:read' });
    const call = {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'notes.delete', arguments: { id: 'n1' } },
    };
    const envelope = {
      ...call,
      params: {
        ...call.params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    };
    const response = await post(srv.url, envelope, {
      authorization: `Bearer ${token}`,
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'notes.delete',
    });
    expect(response.status).toBe(403);
    const challenge = response.headers.get('www-authenticate')!;
    expect(challenge).toContain('error="insufficient_scope"');
    expect(challenge).toContain('scope="notes:write"');
    expect(challenge).toContain('the token lacks notes:write');
    expect(challenge).toContain(
      `resource_metadata="http://127.0.0.1:${port}/.well-known/oauth-protected-resource/mcp"`,
    );
  });

  it('hands the verified AuthInfo to contextFactory, and keeps a legacy session to the principal that opened it', async () => {
    const port = await freePort();
    await using issuer = await startIssuer(`http://127.0.0.1:${port}/mcp`);
    await using srv = await serve(issuer, port);
    const alice = await issuer.token({ sub: 'alice', scope: 'notes:read' });
    const mallory = await issuer.token({ sub: 'mallory', scope: 'notes:read notes:write' });
    await using client = await clientWith(srv.url, alice, 'legacy');
    expect(texts(await client.callTool({ name: 'notes.list', arguments: {} }))).toEqual(['notes of alice']);

    const opened = await post(srv.url, initialize, { authorization: `Bearer ${alice}` });
    const session = opened.headers.get('mcp-session-id')!;
    expect(session).toBeTruthy();
    const headers = { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
    const hijack = await post(
      srv.url,
      { jsonrpc: '2.0', id: 3, method: 'tools/list' },
      { ...headers, authorization: `Bearer ${mallory}` },
    );
    expect(hijack.status).toBe(403);
    expect(((await hijack.json()) as { error: { message: string } }).error.message).toBe(
      'Forbidden: this Mcp-Session-Id belongs to another principal (it was opened with different credentials). Start your own session with initialize.',
    );
    const own = await post(
      srv.url,
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { ...headers, authorization: `Bearer ${alice}` },
    );
    expect(own.status).toBe(202);
  });

  it('modern: a workflow handle belongs to the verified user that minted it; another token cannot use it', async () => {
    const port = await freePort();
    await using issuer = await startIssuer(`http://127.0.0.1:${port}/mcp`);
    await using srv = await httpServer(workspace, {
      ...workspaceOptions(),
      port,
      auth: { verifier: jwksVerifier({ jwksUrl: issuer.jwksUrl, issuer: issuer.issuer, audience: resourceUrl(port) }) },
    });
    await using alice = await clientWith(srv.url, await issuer.token({ sub: 'alice' }), 'auto');
    await using bob = await clientWith(srv.url, await issuer.token({ sub: 'bob' }), 'auto');
    const added = await alice.callTool({ name: 'cart.add_item', arguments: { product_id: 'p1' } });
    const handle = /checkout_id: (che_[\w-]+)/.exec(texts(added).join('\n'))?.[1];
    expect(handle).toBeDefined();
    const stolen = await bob.callTool({ name: 'cart.checkout', arguments: { checkout_id: handle } });
    expect(stolen.isError).toBe(true);
    const own = await alice.callTool({ name: 'cart.checkout', arguments: { checkout_id: handle } });
    expect(own.isError, texts(own).join('\n')).not.toBe(true);
  });
});

function resourceUrl(port: number): string {
  return `http://127.0.0.1:${port}/mcp`;
}
