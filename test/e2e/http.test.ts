import { request } from 'node:http';
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { registry, workspaceOptions } from '../../examples/workspace/registry.js';
import { createFusionApp, startServer, ServerStartError } from '../../src/index.js';
import { httpServer, texts, v1HttpClient, v2HttpClient } from '../_helpers/clients.js';
import { post } from '../_helpers/raw.js';

const toolNames = ['countries.list', 'sprints.list', 'sprints.create', 'tasks.update', 'cart.add_item', 'cart.view'];

describe('HTTP, both eras on one endpoint', () => {
  it('serves a v2 client in its default (legacy) mode with a session', async () => {
    await using srv = await httpServer(registry, workspaceOptions());
    await using client = await v2HttpClient(srv.url);
    expect(client.getProtocolEra()).toBe('legacy');
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(toolNames));
    const result = await client.callTool({ name: 'sprints.create', arguments: { name: 'Sprint 9' } });
    expect(result.isError).not.toBe(true);
    expect(texts(result).join('\n')).toContain('"name":"Sprint 9"');
    expect(srv.app?.sessions.size).toBe(1);
  });

  it('serves a v2 client in auto mode on the modern era, without a session', async () => {
    await using srv = await httpServer(registry, workspaceOptions());
    await using client = await v2HttpClient(srv.url, 'auto');
    expect(client.getProtocolEra()).toBe('modern');
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(toolNames));
    const result = await client.callTool({ name: 'sprints.create', arguments: { name: 'Modern sprint' } });
    expect(texts(result).join('\n')).toContain('"name":"Modern sprint"');
    expect(srv.app?.sessions.size).toBe(0);
  });

  it('serves a v1 SDK client', async () => {
    await using srv = await httpServer(registry, workspaceOptions());
    await using client = await v1HttpClient(srv.url);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(toolNames));
    const result = await client.callTool({ name: 'sprints.create', arguments: { name: 'From v1' } });
    expect(texts(result as never).join('\n')).toContain('"name":"From v1"');
  });

  it('answers invalid arguments with an isError result listing every bad field', async () => {
    await using srv = await httpServer(registry, workspaceOptions());
    await using client = await v2HttpClient(srv.url);
    const result = await client.callTool({ name: 'tasks.update', arguments: { id: 7, colour: 'red' } });
    expect(result.isError).toBe(true);
    expect(texts(result)[0]).toBe(
      'Invalid arguments for tool "tasks.update":\n- id: expected string, received number\n- colour: unknown field\n' +
        'Accepted fields: id, title, sprint_id. Fix the arguments and call "tasks.update" again.',
    );
  });

  it('answers an unknown tool with a JSON-RPC invalid-params error naming the tools', async () => {
    await using srv = await httpServer(registry, workspaceOptions());
    await using client = await v2HttpClient(srv.url);
    await expect(client.callTool({ name: 'nope.tool', arguments: {} })).rejects.toThrow(
      /Unknown tool "nope.tool". Available tools: countries.list/,
    );
  });
});

describe('HTTP hardening', () => {
  const init = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  };
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

  it('refuses a body over the limit with 413', async () => {
    await using srv = await httpServer(registry, { ...workspaceOptions(), maxBodyBytes: 1024 });
    const res = await fetch(srv.url, {
      method: 'POST',
      headers,
      body: JSON.stringify({ ...init, pad: 'x'.repeat(2048) }),
    });
    expect(res.status).toBe(413);
    expect((await res.json()).error.message).toMatch(/exceeds 1024 bytes/);
  });

  it('refuses a foreign Host or Origin with 403 and allows configured ones', async () => {
    await using srv = await httpServer(registry, workspaceOptions());
    const badOrigin = await fetch(srv.url, {
      method: 'POST',
      headers: { ...headers, origin: 'https://evil.example' },
      body: JSON.stringify(init),
    });
    expect(badOrigin.status).toBe(403);
    expect(await rawStatus(srv.url, { ...headers, host: 'evil.example' }, JSON.stringify(init))).toBe(403);
    const local = await fetch(srv.url, {
      method: 'POST',
      headers: { ...headers, origin: 'http://localhost:5173' },
      body: JSON.stringify(init),
    });
    expect(local.status).toBe(200);
    await using custom = await httpServer(registry, { ...workspaceOptions(), allowedOrigins: ['app.example'] });
    const allowed = await fetch(custom.url, {
      method: 'POST',
      headers: { ...headers, origin: 'https://app.example' },
      body: JSON.stringify(init),
    });
    expect(allowed.status).toBe(200);
  });

  it('answers malformed JSON with 400 and -32700', async () => {
    await using srv = await httpServer(registry, workspaceOptions());
    const res = await fetch(srv.url, { method: 'POST', headers, body: '{"jsonrpc": "2.0", "id": 1, "method": ' });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.error.code).toBe(-32700);
    expect(body.id).toBeNull();
  });

  it('refuses a wrong content type with 415', async () => {
    await using srv = await httpServer(registry, workspaceOptions());
    const res = await fetch(srv.url, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'text/plain' },
      body: JSON.stringify(init),
    });
    expect(res.status).toBe(415);
  });

  it('refuses a legacy request without a session that is not initialize with 400, and an unknown session with 404', async () => {
    await using srv = await httpServer(registry, workspaceOptions());
    const noSession = await fetch(srv.url, {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
    expect(noSession.status).toBe(400);
    expect((await noSession.json()).error.message).toMatch(/Send initialize first/);
    const unknown = await fetch(srv.url, {
      method: 'POST',
      headers: { ...headers, 'mcp-session-id': 'no-such-session', 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error.code).toBe(-32001);
  });

  it('ends a session on DELETE; its id then gets 404', async () => {
    await using srv = await httpServer(registry, workspaceOptions());
    const res = await fetch(srv.url, { method: 'POST', headers, body: JSON.stringify(init) });
    const sid = res.headers.get('mcp-session-id');
    expect(sid).toBeTruthy();
    await res.text();
    const sessionHeaders = { ...headers, 'mcp-session-id': sid!, 'mcp-protocol-version': '2025-11-25' };
    await fetch(srv.url, {
      method: 'POST',
      headers: sessionHeaders,
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    });
    expect(srv.app?.sessions.size).toBe(1);
    const del = await fetch(srv.url, { method: 'DELETE', headers: sessionHeaders });
    expect(del.status).toBe(200);
    expect(srv.app?.sessions.size).toBe(0);
    const after = await fetch(srv.url, {
      method: 'POST',
      headers: sessionHeaders,
      body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' }),
    });
    expect(after.status).toBe(404);
  });

  it('binds 127.0.0.1 by default and closes cleanly', async () => {
    const srv = await httpServer(registry, workspaceOptions());
    expect(srv.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    await srv.close();
    await expect(fetch(srv.url, { method: 'POST', headers, body: JSON.stringify(init) })).rejects.toThrow();
  });
});

describe('HTTP hardening of #19 and #20: Host, methods, CORS, listening', () => {
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const init = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  };

  it('answers a malformed Host with 400 over a real socket and through the app, never 500', async () => {
    await using srv = await httpServer(registry, workspaceOptions());
    for (const host of ['localhost:abc', 'evil@localhost', 'localhost:99999']) {
      expect(await rawStatus(srv.url, { ...headers, host }, JSON.stringify(init))).toBe(400);
      const res = await srv.app!.fetch(
        new Request('http://127.0.0.1/mcp', {
          method: 'POST',
          headers: { ...headers, host },
          body: JSON.stringify(init),
        }),
      );
      expect(res.status).toBe(400);
      expect((await res.json()).error.message).toContain('Host header');
    }
    expect(await rawStatus(srv.url, { ...headers, host: '127.0.0.1' }, JSON.stringify(init))).toBe(200);
  });

  it('answers a GET or DELETE of the 2026-07-28 era with 405 and Allow: POST', async () => {
    await using srv = await httpServer(registry, workspaceOptions());
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(srv.url, {
        method,
        headers: { accept: 'text/event-stream', 'mcp-protocol-version': '2026-07-28' },
      });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
      expect((await res.json()).error.message).toMatch(
        /has no (GET|DELETE) stream or session; send requests with POST/,
      );
    }
  });

  it('answers a CORS preflight from an allowed origin with the MCP headers, and exposes Mcp-Session-Id', async () => {
    await using srv = await httpServer(registry, workspaceOptions());
    const pre = await fetch(srv.url, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:5173',
        'access-control-request-method': 'POST',
        'access-control-request-headers':
          'content-type, mcp-session-id, mcp-protocol-version, authorization, last-event-id, mcp-method, mcp-name, mcp-param-region, x-other',
      },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    const allowed = pre.headers.get('access-control-allow-headers')!.split(', ');
    expect(allowed).toEqual(
      expect.arrayContaining([
        'content-type',
        'mcp-session-id',
        'mcp-protocol-version',
        'authorization',
        'last-event-id',
        'mcp-method',
        'mcp-name',
        'mcp-param-region',
      ]),
    );
    expect(allowed).not.toContain('x-other');
    expect(pre.headers.get('access-control-allow-methods')).toBe('POST, GET, DELETE, OPTIONS');
    const opened = await fetch(srv.url, {
      method: 'POST',
      headers: { ...headers, origin: 'http://localhost:5173' },
      body: JSON.stringify(init),
    });
    expect(opened.headers.get('access-control-expose-headers')).toContain('Mcp-Session-Id');
    expect(opened.headers.get('access-control-expose-headers')).toContain('WWW-Authenticate');
    await opened.text();
    const foreign = await fetch(srv.url, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('says which port is busy and how to choose another', async () => {
    await using first = await httpServer(registry, workspaceOptions());
    const error = await startServer(registry, { ...workspaceOptions(), port: first.port! }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ServerStartError);
    expect((error as Error).message).toBe(
      `Port ${first.port} on 127.0.0.1 is already in use (another server is listening there). Stop that server, or choose another port: set the PORT environment variable (PORT=3001 npm start) or pass { port: 3001 } (0 picks a free port) to startServer().`,
    );
  });

  it('closes a connection that sends its headers too slowly (headersTimeoutMs)', async () => {
    await using srv = await httpServer(registry, { ...workspaceOptions(), headersTimeoutMs: 300 });
    const answer = await sendAndWaitForClose(srv.port!, 'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
  });

  it('closes a connection that sends its body too slowly (requestTimeoutMs)', async () => {
    await using srv = await httpServer(registry, { ...workspaceOptions(), requestTimeoutMs: 400 });
    const answer = await sendAndWaitForClose(
      srv.port!,
      'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"jsonrpc"',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
  });

  it('caps open connections (maxConnections): one more is closed without an answer', async () => {
    await using srv = await httpServer(registry, { ...workspaceOptions(), maxConnections: 2 });
    const open = async () => {
      const socket = connect(srv.port!, '127.0.0.1');
      await new Promise((resolve) => socket.once('connect', resolve));
      return socket;
    };
    const kept = [await open(), await open()];
    // The server has taken both once each has answered a request on it (the sockets stay open: keep-alive).
    await Promise.all(
      kept.map((socket) => {
        const answered = new Promise((resolve) => socket.once('data', resolve));
        socket.write('GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
        return answered;
      }),
    );
    const third = await open();
    const closed = await new Promise<boolean>((resolve) => {
      third.once('close', () => resolve(true));
      setTimeout(() => resolve(false), 2_000).unref();
    });
    expect(closed).toBe(true);
    for (const s of kept) s.destroy();
  });
});

describe('initialize is checked before a session exists (#20)', () => {
  const initWith = (params: unknown) => ({ jsonrpc: '2.0', id: 1, method: 'initialize', params });
  const base = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } };

  it('tells a client without clientInfo exactly that, not "Send initialize first"', async () => {
    const app = createFusionApp(registry, workspaceOptions());
    const res = await post(app, initWith({ protocolVersion: '2025-11-25', capabilities: {} }));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: {
        code: -32602,
        message:
          'Invalid initialize: params.clientInfo is missing; send clientInfo: { name, version } naming the client.',
      },
    });
    expect(app.sessions.manager.count).toBe(0);
    await app.close();
  });

  it('answers capabilities nested 3,000 deep with 400, not 503 "store unavailable"', async () => {
    const app = createFusionApp(registry, workspaceOptions());
    let deep: Record<string, unknown> = {};
    const capabilities = deep;
    for (let i = 0; i < 3_000; i++) deep = (deep.x = {}) as Record<string, unknown>;
    const res = await post(app, initWith({ ...base, capabilities }));
    expect(res.status).toBe(400);
    expect(res.headers.get('retry-after')).toBeNull();
    expect((await res.json()).error.message).toBe(
      'Invalid initialize: params are nested deeper than 32 levels. Send only the capabilities the client has.',
    );
    expect(app.sessions.manager.count).toBe(0);
    await app.close();
  });

  it('refuses initialize params over maxInitializeBytes with 413 and keeps no session', async () => {
    const app = createFusionApp(registry, { ...workspaceOptions(), limits: { maxInitializeBytes: 4_096 } });
    const res = await post(app, initWith({ ...base, capabilities: { experimental: { pad: 'x'.repeat(5_000) } } }));
    expect(res.status).toBe(413);
    expect((await res.json()).error.message).toMatch(
      /^Invalid initialize: params take \d+ bytes, over this server's limit of 4096\./,
    );
    expect(app.sessions.manager.count).toBe(0);
    await app.close();
  });

  it('keeps one frozen copy of the initialize params, shared by the session and the in-memory store', async () => {
    const app = createFusionApp(registry, workspaceOptions());
    const res = await post(app, initWith({ ...base, capabilities: { sampling: {} } }));
    const sid = res.headers.get('mcp-session-id')!;
    await res.text();
    const tracked = app.sessions.manager.get(sid)!;
    const stored = (await app.sessions.manager.store.get(sid))!;
    expect(stored.clientCapabilities).toBe(tracked.clientCapabilities);
    expect(Object.isFrozen(tracked.clientCapabilities.sampling)).toBe(true);
    await app.close();
  });
});

describe('legacy session budgets (#20)', () => {
  const init = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  };
  /** `use`: true sends `notifications/initialized` and one request; 'initialized' only the former. */
  const open = async (app: ReturnType<typeof createFusionApp>, peer: string, use: boolean | 'initialized' = false) => {
    const res = await app.fetch(
      new Request('http://127.0.0.1/mcp', {
        method: 'POST',
        headers: {
          host: '127.0.0.1',
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify(init),
      }),
      { peer },
    );
    const sid = res.headers.get('mcp-session-id');
    const body = await res.text();
    if (sid !== null && use !== false)
      await (await post(app, { jsonrpc: '2.0', method: 'notifications/initialized' }, sid)).text();
    if (sid !== null && use === true)
      await (await post(app, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, sid)).text();
    return { status: res.status, sid, retryAfter: res.headers.get('retry-after'), body };
  };

  it('per peer: evicts the oldest never-used session first, then the least recently used one', async () => {
    const events: string[] = [];
    const app = createFusionApp(registry, {
      ...workspaceOptions(),
      limits: { maxSessionsPerPrincipal: 2 },
      onSessionEvent: (e) => void events.push(`${e.reason}:${e.to}`),
    });
    const unused = await open(app, '10.0.0.1', 'initialized');
    const used = await open(app, '10.0.0.1', true);
    const third = await open(app, '10.0.0.1', true);
    expect(third.status).toBe(200);
    expect(app.sessions.manager.get(unused.sid!)).toBeUndefined();
    expect(app.sessions.manager.get(used.sid!)).toBeDefined();
    expect(events).toContain('evicted:destroyed');
    // `used` was used again after `third`: `third` is now the least recently used.
    await (await post(app, { jsonrpc: '2.0', id: 3, method: 'tools/list' }, used.sid!)).text();
    const fourth = await open(app, '10.0.0.1', true);
    expect(fourth.status).toBe(200);
    expect([app.sessions.manager.get(third.sid!), app.sessions.manager.get(used.sid!)?.id]).toEqual([
      undefined,
      used.sid,
    ]);
    expect((await post(app, { jsonrpc: '2.0', id: 4, method: 'tools/list' }, third.sid!)).status).toBe(404);
    await app.close();
  });

  it('evicts a session in its handshake only from the owner holding the most: per peer 429, in total another', async () => {
    const app = createFusionApp(registry, {
      ...workspaceOptions(),
      limits: { maxSessionsPerPrincipal: 2, maxSessions: 4 },
    });
    const alive = (...sids: Array<string | null>) => sids.map((sid) => app.sessions.manager.get(sid!)?.id === sid);
    const handshake = await open(app, '10.0.0.1');
    const used = await open(app, '10.0.0.1', true);
    const third = await open(app, '10.0.0.1', true);
    expect(third.status, 'room made by taking the used session').toBe(200);
    expect(alive(handshake.sid, used.sid)).toEqual([true, false]);
    const pending = [await open(app, '10.0.0.2'), await open(app, '10.0.0.2')];
    const refused = await open(app, '10.0.0.2');
    expect([refused.status, refused.retryAfter]).toEqual([429, '5']);
    expect(JSON.parse(refused.body).error.message).toContain(
      'this client already holds 2 open sessions (without authentication, every session from its network address counts)',
    );
    // In total (4): the session taken is one not in its handshake, of the largest owner.
    const other = await open(app, '10.0.0.3', true);
    expect(other.status).toBe(200);
    expect(alive(handshake.sid, third.sid, ...pending.map((p) => p.sid))).toEqual([true, false, true, true]);
    // Only the owner holding the most (10.0.0.2, two handshakes) pays: its oldest handshake goes, not a client
    // holding one session (10.0.0.3's used one stays).
    expect((await open(app, '10.0.0.4')).status).toBe(200);
    expect(alive(handshake.sid, other.sid, ...pending.map((p) => p.sid))).toEqual([true, true, false, true]);
    // Nobody holds more than one: the session taken is the one not in its handshake.
    expect((await open(app, '10.0.0.5')).status, 'the last session not in its handshake').toBe(200);
    expect(alive(other.sid)).toEqual([false]);
    // Only handshakes are left, one per owner: 503, and every remaining handshake goes on.
    const full = await open(app, '10.0.0.6');
    expect([full.status, full.retryAfter]).toEqual([503, '10']);
    await (await post(app, { jsonrpc: '2.0', method: 'notifications/initialized' }, handshake.sid!)).text();
    expect((await post(app, { jsonrpc: '2.0', id: 9, method: 'tools/list' }, handshake.sid!)).status).toBe(200);
    await app.close();
  });

  it('in total: evicts the least recently used session of the owner holding the most, not a client holding one', async () => {
    const app = createFusionApp(registry, { ...workspaceOptions(), limits: { maxSessions: 3 } });
    const quiet = await open(app, '10.0.0.9', true);
    const flood = [await open(app, '10.0.0.1', true), await open(app, '10.0.0.1', true)];
    const fresh = await open(app, '10.0.0.3', true);
    expect(fresh.status).toBe(200);
    expect(app.sessions.manager.get(quiet.sid!)).toBeDefined();
    expect(app.sessions.manager.get(flood[0]!.sid!)).toBeUndefined();
    expect(app.sessions.manager.get(flood[1]!.sid!)).toBeDefined();
    // Every owner now holds one session: the least recently used one overall makes room.
    const next = await open(app, '10.0.0.4', true);
    expect(next.status).toBe(200);
    expect(app.sessions.manager.get(quiet.sid!)).toBeUndefined();
    expect(app.sessions.manager.count).toBe(3);
    await app.close();
  });
});

/** fetch() may not set Host; node:http can. */
function rawStatus(url: string, headers: Record<string, string>, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Writes `bytes` on a raw connection and returns all the server answered by the time it closed ('still open' after 5 s). */
async function sendAndWaitForClose(port: number, bytes: string): Promise<string> {
  const socket = connect(port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.write(bytes);
  const answer = await new Promise<string>((resolve) => {
    let text = '';
    socket.on('data', (chunk) => void (text += chunk.toString('utf8')));
    socket.once('close', () => resolve(text));
    setTimeout(() => resolve('still open'), 5_000).unref();
  });
  socket.destroy();
  return answer;
}
