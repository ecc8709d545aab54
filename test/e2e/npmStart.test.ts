import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { describe, expect, it } from 'vitest';
import { hostCommand, type HostCommand } from '../../scripts/docs-typecheck/hostCommand.js';
import { markedBlocks } from '../../scripts/docs-typecheck/markedBlocks.js';
import { texts } from '../_helpers/clients.js';
import { freePort } from '../_helpers/freePort.js';
import { portAnswers, until } from '../_helpers/waitFor.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

async function stdioClient(mode: 'legacy' | 'auto'): Promise<Client> {
  const client = new Client(
    { name: 'stdio-test', version: '1.0.0' },
    mode === 'auto' ? { versionNegotiation: { mode: 'auto' } } : {},
  );
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', '--conditions=mcp-fusion-source', 'examples/workspace/main.ts', '--stdio'],
    cwd: root,
    stderr: 'pipe',
  });
  await client.connect(transport);
  return client;
}

describe('the example over stdio', () => {
  it.each(['legacy', 'auto'] as const)(
    'serves the example to a v2 stdio client in %s mode',
    async (mode) => {
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
    },
    30_000,
  );
});

describe('stdio lifecycle', () => {
  it('ends cleanly by itself when the client goes away (stdin closes)', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '--conditions=mcp-fusion-source', 'examples/workspace/main.ts', '--stdio'],
      { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] },
    );
    const firstLine = new Promise<string>((resolve) => {
      let buffered = '';
      child.stdout.on('data', (chunk: Buffer) => {
        buffered += chunk.toString('utf8');
        const end = buffered.indexOf('\n');
        if (end !== -1) resolve(buffered.slice(0, end));
      });
    });
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } })}\n`,
    );
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
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/mcp`;
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '--conditions=mcp-fusion-source', 'examples/workspace/main.ts'],
      { cwd: root, env: { ...process.env, PORT: String(port), REDIS_URL: '' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let text = '';
    child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    await portAnswers(port, { proc: child, log: () => text, what: 'npm start' });
    // The log line is what this test is about; it may reach us a moment after the port answers.
    await until(() => text.includes(`listening on ${url}`), `the log line naming ${url}`);
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      }),
    });
    expect(res.status).toBe(200);
    await res.text();
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    const code = await Promise.race([exited, new Promise<string>((r) => setTimeout(() => r('still running'), 15_000))]);
    if (code === 'still running') child.kill('SIGKILL');
    expect(code).toBe(0);
  }, 30_000);
});

/** Every live process below `pid` (Linux /proc), with its command line. */
function descendants(pid: number): Map<number, string> {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // the process ended meanwhile
    }
  }
  const found = new Map<number, string>();
  const visit = (parent: number): void => {
    for (const [child, ppid] of parents) {
      if (ppid !== parent || found.has(child)) continue;
      found.set(child, readFileSync(`/proc/${child}/cmdline`, 'utf8').replaceAll('\0', ' ').trim());
      visit(child);
    }
  };
  visit(pid);
  return found;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('npm start as a process tree', () => {
  it('SIGTERM to the npm process stops the server too (no orphan)', async () => {
    const port = await freePort();
    const npm = spawn('npm', ['start'], {
      cwd: root,
      env: { ...process.env, PORT: String(port), REDIS_URL: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let tree = new Map<number, string>();
    try {
      let text = '';
      npm.stdout.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      npm.stderr.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      await portAnswers(port, { proc: npm, log: () => text, what: 'npm start' });
      tree = descendants(npm.pid!);
      expect(
        [...tree.values()].some((cmd) => cmd.includes('examples/workspace/main.ts') && cmd.startsWith('node')),
      ).toBe(true);
      const npmExited = new Promise<void>((resolve) => npm.once('exit', () => resolve()));
      process.kill(npm.pid!, 'SIGTERM');
      await npmExited;
      const deadline = Date.now() + 10_000;
      // A process's end is seen only by polling /proc (the grandchild is not ours to wait for).
      while ([...tree.keys()].some(alive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect([...tree].filter(([pid]) => alive(pid)).map(([, cmd]) => cmd)).toEqual([]);
    } finally {
      for (const pid of [npm.pid!, ...tree.keys()]) if (alive(pid)) process.kill(pid, 'SIGKILL');
    }
  }, 60_000);
});

/** Everything the host's command writes on stdout for one `initialize`, line by line, parsed as JSON. */
async function rawStdout(host: HostCommand): Promise<unknown[]> {
  const child = spawn(host.command, host.args, {
    cwd: host.host === 'inspector' ? root : tmpdir(),
    env: { ...getDefaultEnvironment(), ...host.env },
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  let out = '';
  const answered = new Promise<void>((resolve) =>
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      if (out.includes('"id":1')) resolve();
    }),
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.stdin.write(
    `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } })}\n`,
  );
  await Promise.race([answered, exited]);
  child.stdin.end();
  await exited;
  return out
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      try {
        return JSON.parse(line) as unknown;
      } catch {
        return `not JSON: ${line}`;
      }
    });
}

describe("the README's MCP host configs, launched exactly as written", () => {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const hosts = markedBlocks(readme, 'host').map((block) => hostCommand(block, root.replace(/\/$/, '')));

  it('documents Claude Desktop, Claude Code, VS Code, Cursor and MCP Inspector', () => {
    expect(hosts.map((h) => h.host).sort()).toEqual(['claude-code', 'claude-desktop', 'cursor', 'inspector', 'vscode']);
  });

  it.each(hosts.map((h) => [h.host, h] as const))(
    '%s: lists the tools and calls one over a clean stdout',
    async (_name, host) => {
      const transport = new StdioClientTransport({
        command: host.command,
        args: host.args,
        env: host.env,
        // Hosts start servers from anywhere; MCP Inspector is run from the checkout.
        cwd: host.host === 'inspector' ? root : tmpdir(),
        stderr: 'pipe',
      });
      const client = new Client({ name: `host-${host.host}`, version: '1.0.0' });
      const errors: unknown[] = [];
      client.onerror = (error) => errors.push(error);
      await client.connect(transport);
      try {
        expect((await client.listTools()).tools.map((t) => t.name)).toContain('sprints.create');
        const result = await client.callTool({ name: 'sprints.create', arguments: { name: `via ${host.host}` } });
        expect(result.isError).not.toBe(true);
        expect(texts(result).join('\n')).toContain(`"name":"via ${host.host}"`);
        expect(errors).toEqual([]);
      } finally {
        await client.close();
      }
      // The SDK client skips lines that are not JSON; some hosts do not. Every line on stdout must be JSON-RPC.
      expect(await rawStdout(host)).toEqual([
        expect.objectContaining({
          jsonrpc: '2.0',
          id: 1,
          result: expect.objectContaining({ serverInfo: expect.anything() }),
        }),
      ]);
    },
    60_000,
  );
});
