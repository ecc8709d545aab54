import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { describe, expect, it } from 'vitest';
import { texts } from '../_helpers/clients.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

async function stdioClient(mode: 'legacy' | 'auto'): Promise<Client> {
  const client = new Client({ name: 'stdio-test', version: '1.0.0' }, mode === 'auto' ? { versionNegotiation: { mode: 'auto' } } : {});
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', '--conditions=mcp-fusion-source', 'examples/workspace/main.ts', '--stdio'],
    cwd: root,
    stderr: 'pipe',
  });
  await client.connect(transport);
  return client;
}

describe('npm start -- --stdio', () => {
  it.each(['legacy', 'auto'] as const)('serves the example to a v2 stdio client in %s mode', async (mode) => {
    const client = await stdioClient(mode);
    try {
      expect(client.getProtocolEra()).toBe(mode === 'auto' ? 'modern' : 'legacy');
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toContain('sprints.create');
      const result = await client.callTool({ name: 'sprints.create', arguments: { name: `stdio ${mode}` } });
      expect(texts(result).join('\n')).toContain(`"name":"stdio ${mode}"`);
    } finally {
      await client.close();
    }
  }, 30_000);
});

describe('stdio lifecycle', () => {
  it('ends cleanly by itself when the client goes away (stdin closes)', async () => {
    const { spawn } = await import('node:child_process');
    const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=mcp-fusion-source', 'examples/workspace/main.ts', '--stdio'], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
    const firstLine = new Promise<string>((resolve) => {
      let buffered = '';
      child.stdout.on('data', (chunk: Buffer) => {
        buffered += chunk.toString('utf8');
        const end = buffered.indexOf('\n');
        if (end !== -1) resolve(buffered.slice(0, end));
      });
    });
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } })}\n`);
    expect(JSON.parse(await firstLine).result.serverInfo.name).toBe('mcp-fusion-workspace');
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.stdin.end();
    const code = await Promise.race([exited, new Promise<string>((r) => setTimeout(() => r('still running'), 10_000))]);
    if (code === 'still running') child.kill('SIGKILL');
    expect(code).toBe(0);
  }, 30_000);
});

describe('npm start lifecycle', () => {
  it('logs where it listens and shuts down cleanly on SIGTERM', async () => {
    const { spawn } = await import('node:child_process');
    const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=mcp-fusion-source', 'examples/workspace/main.ts'], { cwd: root, env: { ...process.env, PORT: '0', REDIS_URL: '' }, stdio: ['ignore', 'pipe', 'pipe'] });
    const url = await new Promise<string>((resolve, reject) => {
      let text = '';
      child.stderr.on('data', (chunk: Buffer) => {
        text += chunk.toString('utf8');
        const match = /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(text);
        if (match) resolve(match[1]!);
      });
      child.once('exit', () => reject(new Error(`exited early: ${text}`)));
    });
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }) });
    expect(res.status).toBe(200);
    await res.text();
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    const code = await Promise.race([exited, new Promise<string>((r) => setTimeout(() => r('still running'), 15_000))]);
    if (code === 'still running') child.kill('SIGKILL');
    expect(code).toBe(0);
  }, 30_000);
});
