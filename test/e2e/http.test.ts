import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { registry, workspaceOptions } from '../../examples/workspace/registry.js';
import { httpServer, texts, v1HttpClient, v2HttpClient } from '../_helpers/clients.js';

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
    await expect(client.callTool({ name: 'nope.tool', arguments: {} })).rejects.toThrow(/Unknown tool "nope.tool". Available tools: countries.list/);
  });
});

describe('HTTP hardening', () => {
  const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

  it('refuses a body over the limit with 413', async () => {
    await using srv = await httpServer(registry, { ...workspaceOptions(), maxBodyBytes: 1024 });
    const res = await fetch(srv.url, { method: 'POST', headers, body: JSON.stringify({ ...init, pad: 'x'.repeat(2048) }) });
    expect(res.status).toBe(413);
    expect((await res.json()).error.message).toMatch(/exceeds 1024 bytes/);
  });

  it('refuses a foreign Host or Origin with 403 and allows configured ones', async () => {
    await using srv = await httpServer(registry, workspaceOptions());
    const badOrigin = await fetch(srv.url, { method: 'POST', headers: { ...headers, origin: 'https://evil.example' }, body: JSON.stringify(init) });
    expect(badOrigin.status).toBe(403);
    expect(await rawStatus(srv.url, { ...headers, host: 'evil.example' }, JSON.stringify(init))).toBe(403);
    const local = await fetch(srv.url, { method: 'POST', headers: { ...headers, origin: 'http://localhost:5173' }, body: JSON.stringify(init) });
    expect(local.status).toBe(200);
    await using custom = await httpServer(registry, { ...workspaceOptions(), allowedOrigins: ['app.example'] });
    const allowed = await fetch(custom.url, { method: 'POST', headers: { ...headers, origin: 'https://app.example' }, body: JSON.stringify(init) });
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
    const res = await fetch(srv.url, { method: 'POST', headers: { ...headers, 'content-type': 'text/plain' }, body: JSON.stringify(init) });
    expect(res.status).toBe(415);
  });

  it('refuses a legacy request without a session that is not initialize with 400, and an unknown session with 404', async () => {
    await using srv = await httpServer(registry, workspaceOptions());
    const noSession = await fetch(srv.url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }) });
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
    await fetch(srv.url, { method: 'POST', headers: sessionHeaders, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
    expect(srv.app?.sessions.size).toBe(1);
    const del = await fetch(srv.url, { method: 'DELETE', headers: sessionHeaders });
    expect(del.status).toBe(200);
    expect(srv.app?.sessions.size).toBe(0);
    const after = await fetch(srv.url, { method: 'POST', headers: sessionHeaders, body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' }) });
    expect(after.status).toBe(404);
  });

  it('binds 127.0.0.1 by default and closes cleanly', async () => {
    const srv = await httpServer(registry, workspaceOptions());
    expect(srv.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    await srv.close();
    await expect(fetch(srv.url, { method: 'POST', headers, body: JSON.stringify(init) })).rejects.toThrow();
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
