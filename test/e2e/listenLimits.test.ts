import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { createFusionApp, initFusion, jwksVerifier, type FusionApp } from '../../src/index.js';
import { createClock } from '../../src/testing/index.js';
import { closedOnClock, httpServer } from '../_helpers/clients.js';
import { messagesOf } from '../_helpers/raw.js';
import { startIssuer } from '../auth/issuer.js';
import { freePort } from '../_helpers/freePort.js';
import { until } from '../_helpers/waitFor.js';

const f = initFusion();
/** A public resource and one that needs `admin`; State Sync on, so listen streams honour resource URIs. */
const registry = () =>
  f.registry().registerAll(
    f
      .query('ping')
      .describe('Answers pong')
      .handle(() => 'pong'),
    f
      .resource('workspace://readme')
      .describe('Public')
      .handle(() => 'readme'),
    f
      .resource('workspace://secrets')
      .describe('Admins only')
      .requireScopes('admin')
      .handle(() => 'secret'),
  );
const stateSync = { policies: [{ match: 'ping', cacheControl: 'immutable' as const }] };
const meta = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
};
const listenHeaders = {
  host: '127.0.0.1',
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2026-07-28',
  'mcp-method': 'subscriptions/listen',
};

/** A raw listen request from `peer` with the given resource URIs. */
function listen(app: FusionApp, peer: string, uris: string[], id = 1): Promise<Response> {
  const body = {
    jsonrpc: '2.0',
    id,
    method: 'subscriptions/listen',
    params: { notifications: { resourceSubscriptions: uris }, _meta: meta },
  };
  return app.fetch(
    new Request('http://127.0.0.1/mcp', { method: 'POST', headers: listenHeaders, body: JSON.stringify(body) }),
    { peer },
  );
}

const uris = (n: number, length = 20) =>
  Array.from({ length: n }, (_, i) => `test://r/${String(i).padStart(length - 9, '0')}`);

describe('listen filters have a budget, one by one and together', () => {
  it('refuses a filter over maxListenFilterUris or maxListenFilterBytes with 400 -32602, before holding anything', async () => {
    const app = createFusionApp(registry(), {
      stateSync,
      limits: { maxListenFilterUris: 10, maxListenFilterBytes: 100 },
    });
    const many = await listen(app, '10.0.0.1', uris(11, 5));
    const big = await listen(app, '10.0.0.1', uris(6, 20));
    expect([many.status, big.status]).toEqual([400, 400]);
    expect((await many.json()).error).toMatchInlineSnapshot(`
      {
        "code": -32602,
        "message": "Invalid params: the resourceSubscriptions filter names 11 resource URIs; the most is 10. Listen with fewer URIs (open another stream for the rest).",
      }
    `);
    expect((await big.json()).error.message).toContain('holds 120 bytes of resource URIs; the most is 100');
    const fits = await listen(app, '10.0.0.1', uris(5, 20));
    expect(fits.status).toBe(200);
    await fits.body?.cancel();
    await app.close();
  });

  it('answers 503 with Retry-After when the open filters hold maxListenFilterBytesTotal, and frees the bytes when a stream ends', async () => {
    const app = createFusionApp(registry(), { stateSync, limits: { maxListenFilterBytesTotal: 100 } });
    const first = await listen(app, '10.0.0.1', uris(4, 20));
    const second = await listen(app, '10.0.0.2', uris(1, 20));
    expect([first.status, second.status]).toEqual([200, 200]);
    const refused = await listen(app, '10.0.0.3', uris(2, 20));
    expect([refused.status, refused.headers.get('retry-after')]).toEqual([503, '30']);
    expect((await refused.json()).error.message).toMatchInlineSnapshot(
      `"Service Unavailable: the subscription filters open on this server hold their maximum of 100 bytes. Listen again later or on another instance."`,
    );
    await first.body?.cancel();
    const after = await listen(app, '10.0.0.3', uris(2, 20));
    expect(after.status).toBe(200);
    await Promise.all([second.body?.cancel(), after.body?.cancel()]);
    await app.close();
  });

  it('counts anonymous IPv6 callers of one /64 as one peer', async () => {
    const app = createFusionApp(registry(), { stateSync, maxListenStreamsPerPrincipal: 1 });
    const first = await listen(app, '2001:db8:1:2::10', uris(1));
    const sameNet = await listen(app, '2001:db8:1:2:ffff::1', uris(1));
    const otherNet = await listen(app, '2001:db8:1:3::10', uris(1));
    expect([first.status, sameNet.status, otherNet.status]).toEqual([200, 429, 200]);
    await Promise.all([first.body?.cancel(), sameNet.body?.cancel(), otherNet.body?.cancel()]);
    await app.close();
  });
});

describe('listen filters obey scopes; streams end with their token', () => {
  it('leaves a scope-hidden resource out of the honoured filter, naming it nowhere, and keeps it for a token with the scope', async () => {
    const port = await freePort();
    const resource = `http://127.0.0.1:${port}/mcp`;
    await using issuer = await startIssuer(resource);
    await using srv = await httpServer(registry(), {
      port,
      stateSync,
      auth: { verifier: jwksVerifier({ jwksUrl: issuer.jwksUrl, issuer: issuer.issuer, audience: resource }) },
    });
    const reader = await tokenClient(srv.url, await issuer.token({ sub: 'reader' }));
    const admin = await tokenClient(srv.url, await issuer.token({ sub: 'root', scope: 'admin' }));
    const hidden = await reader.listen({ resourceSubscriptions: ['workspace://readme', 'workspace://secrets'] });
    const shown = await admin.listen({ resourceSubscriptions: ['workspace://readme', 'workspace://secrets'] });
    expect(hidden.honoredFilter).toEqual({ resourceSubscriptions: ['workspace://readme'] });
    expect(shown.honoredFilter).toEqual({ resourceSubscriptions: ['workspace://readme', 'workspace://secrets'] });
    await Promise.all([hidden.close(), shown.close()]);
    await Promise.all([reader.close(), admin.close()]);
  });

  it('ends a listen stream when the token that opened it expires; the client listens again with a fresh token', async () => {
    const port = await freePort();
    const resource = `http://127.0.0.1:${port}/mcp`;
    await using issuer = await startIssuer(resource);
    const clock = createClock(Date.now());
    await using srv = closedOnClock(
      await httpServer(registry(), {
        port,
        stateSync,
        clock,
        auth: { verifier: jwksVerifier({ jwksUrl: issuer.jwksUrl, issuer: issuer.issuer, audience: resource }) },
      }),
      clock,
    );
    let token = await issuer.token({ sub: 'alice', expiresIn: 60 });
    const exp = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).exp as number;
    const client = await tokenClient(srv.url, () => token);
    const updates: string[] = [];
    client.setNotificationHandler('notifications/resources/updated', (n) => void updates.push(n.params.uri));
    // By the server's clock the token has 300 ms left: the stream lives until then, on that clock.
    clock.set(exp * 1000 - 300);
    const first = await client.listen({ resourceSubscriptions: ['workspace://readme'] });
    clock.advance(299);
    await srv.notifyResourceUpdated('workspace://readme');
    await until(() => updates.length === 1, 'an update on the stream a millisecond before its token expires');
    clock.advance(1);
    // Ended on purpose with the listen result (a resumable stream that were cut would be resumed, not ended).
    expect(await first.closed).toBe('graceful');
    token = await issuer.token({ sub: 'alice', expiresIn: 3_600 });
    const again = await client.listen({ resourceSubscriptions: ['workspace://readme'] });
    expect(again.honoredFilter).toEqual({ resourceSubscriptions: ['workspace://readme'] });
    // Twenty minutes later (within the streams' 30-minute lifetime) the fresh token is still valid: the new stream hears updates.
    clock.advance(20 * 60_000);
    await srv.notifyResourceUpdated('workspace://readme');
    await until(() => updates.length === 2, 'an update on the stream of the fresh token');
    await again.close();
    await client.close();
  });

  it('ends a legacy GET stream when its token expires; a GET with a fresh token opens a new one', async () => {
    const port = await freePort();
    const resource = `http://127.0.0.1:${port}/mcp`;
    await using issuer = await startIssuer(resource);
    const clock = createClock(Date.now());
    await using srv = closedOnClock(
      await httpServer(registry(), {
        port,
        stateSync,
        clock,
        auth: { verifier: jwksVerifier({ jwksUrl: issuer.jwksUrl, issuer: issuer.issuer, audience: resource }) },
      }),
      clock,
    );
    const token = await issuer.token({ sub: 'bob', expiresIn: 60 });
    const exp = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).exp as number;
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${token}`,
    };
    const init = await fetch(srv.url, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      }),
    });
    const sid = init.headers.get('mcp-session-id')!;
    await messagesOf(init);
    const session = { ...headers, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25' };
    await (
      await fetch(srv.url, {
        method: 'POST',
        headers: session,
        body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
      })
    ).text();
    clock.set(exp * 1000 - 300);
    const get = await fetch(srv.url, { headers: { ...session, accept: 'text/event-stream' } });
    expect(get.status).toBe(200);
    const ended = get.text();
    clock.advance(300);
    await ended;
    const fresh = await issuer.token({ sub: 'bob', expiresIn: 3_600 });
    const reopened = await fetch(srv.url, {
      headers: { ...session, accept: 'text/event-stream', authorization: `Bearer ${fresh}` },
    });
    expect(reopened.status).toBe(200);
    await reopened.body?.cancel();
  });
});

/** A modern v2 client whose every request carries the bearer token `token` returns (or the fixed one). */
async function tokenClient(url: string, token: string | (() => string)): Promise<Client> {
  const current = typeof token === 'string' ? () => token : token;
  const client = new Client({ name: 'listener', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      fetch: (input, init) => {
        const headers = new Headers(init?.headers);
        headers.set('authorization', `Bearer ${current()}`);
        return fetch(input, { ...init, headers });
      },
    }),
  );
  return client;
}
