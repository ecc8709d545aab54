import { describe, expect, it } from 'vitest';
import { registry, workspaceOptions } from '../../../examples/workspace/registry.js';
import { createFusionApp, jwksVerifier } from '../../../src/index.js';
import { startIssuer } from '../../auth/issuer.js';

const RESOURCE = 'http://127.0.0.1/mcp';

/** A request to the app, Host 127.0.0.1 unless `headers` says otherwise. */
function request(
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Request {
  const r = new Request(`http://127.0.0.1${path}`, {
    method: init.method ?? 'POST',
    ...(init.body !== undefined ? { body: init.body } : {}),
  });
  r.headers.set('host', '127.0.0.1');
  for (const [k, v] of Object.entries(init.headers ?? {})) r.headers.set(k, v);
  return r;
}

/** Status and JSON-RPC code (if any) of an answer. */
async function outcome(response: Response): Promise<[number, number | undefined]> {
  const text = await response.text();
  const code = text.startsWith('{') ? (JSON.parse(text) as { error?: { code?: number } }).error?.code : undefined;
  return [response.status, code];
}

describe('the HTTP front, in the order middleware/front.ts lists', () => {
  it('checks Host before the endpoint path, the path before the body, and the body before the budgets', async () => {
    const app = createFusionApp(registry, workspaceOptions());
    const refused = (init: Parameters<typeof request>[1], path = '/mcp') =>
      app.fetch(request(path, init)).then(outcome);
    // A foreign Host on a wrong path: 403 (allowedHost) before 404 (endpointPath).
    expect(await refused({ headers: { host: 'evil.example' } }, '/elsewhere')).toEqual([403, -32000]);
    // A wrong path with a body that is not JSON: 404 before 415.
    expect(await refused({ headers: { 'content-type': 'text/plain' }, body: 'x' }, '/elsewhere')).toEqual([
      404, -32600,
    ]);
    // Not JSON, with a __proto__ call inside: 415 (jsonBody) before anything reads the message.
    const proto = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{"__proto__":{}}}}';
    expect(await refused({ headers: { 'content-type': 'text/plain' }, body: proto })).toEqual([415, -32600]);
    expect(await refused({ headers: { 'content-type': 'application/json' }, body: proto })).toEqual([400, -32602]);
    await app.close();
  });

  it('answers a malformed Host before a closing app says 503, and 503 before the Host allow-list', async () => {
    const app = createFusionApp(registry, workspaceOptions());
    await app.close();
    expect(await outcome(await app.fetch(request('/mcp', { headers: { host: 'a b' } })))).toEqual([400, -32600]);
    const closing = await app.fetch(request('/mcp', { headers: { host: 'evil.example' } }));
    expect([...(await outcome(closing)), closing.headers.get('retry-after')]).toEqual([503, -32603, '1']);
  });

  it('with auth on: serves the metadata document and a preflight without a token, then asks for one before reading the body', async () => {
    await using issuer = await startIssuer(RESOURCE);
    const app = createFusionApp(registry, {
      ...workspaceOptions(),
      auth: {
        verifier: jwksVerifier({ jwksUrl: issuer.jwksUrl, issuer: issuer.issuer, audience: RESOURCE }),
        resourceMetadata: { authorizationServers: [issuer.issuer] },
      },
    });
    const metadata = await app.fetch(request('/.well-known/oauth-protected-resource/mcp', { method: 'GET' }));
    expect([metadata.status, ((await metadata.json()) as { resource: string }).resource]).toEqual([200, RESOURCE]);
    const preflight = await app.fetch(
      request('/mcp', {
        method: 'OPTIONS',
        headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST' },
      }),
    );
    expect([preflight.status, preflight.headers.get('access-control-allow-origin')]).toEqual([
      204,
      'http://localhost:5173',
    ]);
    // No token and a body that is not JSON: 401 (authenticate) before 400 -32700 (jsonBody).
    const anonymous = await app.fetch(
      request('/mcp', { headers: { 'content-type': 'application/json' }, body: '{not json' }),
    );
    expect([anonymous.status, anonymous.headers.get('www-authenticate')?.startsWith('Bearer ')]).toEqual([401, true]);
    const token = await issuer.token({ sub: 'alice' });
    const bad = await app.fetch(
      request('/mcp', {
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: '{not json',
      }),
    );
    expect(await outcome(bad)).toEqual([400, -32700]);
    await app.close();
  });
});
