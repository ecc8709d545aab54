import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Client, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { describe, expect, it } from 'vitest';
import { hostCommand, type HostCommand } from '../../scripts/docs-typecheck/hostCommand.js';
import { markedBlocks } from '../../scripts/docs-typecheck/markedBlocks.js';
import { texts } from '../_helpers/clients.js';
import { freePort } from '../_helpers/freePort.js';
import { portAnswers, until } from '../_helpers/waitFor.js';
import { sourceChild } from '../_helpers/sourceChild.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

async function stdioClient(mode: 'legacy' | 'auto'): Promise<Client> {
  const client = new Client(
    { name: 'stdio-test', version: '1.0.0' },
    mode === 'auto' ? { versionNegotiation: { mode: 'auto' } } : {},
  );
  const transport = new StdioClientTransport({
    command: process.execPath,
    // The example's stdio serving (how a host launches it is the host configs' test below, as written).
    args: [...sourceChild('examples/workspace/main.ts'), '--stdio'],
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
    const child = spawn(process.execPath, [...sourceChild('examples/workspace/main.ts'), '--stdio'], {
      cwd: root,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
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
    // The example's own lifecycle (its bundle: `npm start` itself, npm and tsx included, is stopsWithNpm's below).
    const child = spawn(process.execPath, sourceChild('examples/workspace/main.ts'), {
      cwd: root,
      env: { ...process.env, PORT: String(port), REDIS_URL: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
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

/** Whether `pid` still runs: an exited process not yet reaped by its new parent (a zombie) does not. */
function alive(pid: number): boolean {
  try {
    // /proc/<pid>/stat: "pid (comm) state …"; the state follows the last ")".
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/**
 * `npm start` in the repository (no Redis, `env` added): once its port answers, SIGTERM to the npm process; the
 * processes npm had started (its shell, the server) must all be gone within 10 s.
 */
async function stopsWithNpm(env: NodeJS.ProcessEnv = {}): Promise<void> {
  const port = await freePort();
  const npm = spawn('npm', ['start'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), REDIS_URL: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let tree = new Map<number, string>();
  try {
    let text = '';
    npm.stdout.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    npm.stderr.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    await portAnswers(port, { proc: npm, log: () => text, what: 'npm start' });
    tree = descendants(npm.pid!);
    expect([...tree.values()].some((cmd) => cmd.includes('examples/workspace/main.ts') && cmd.startsWith('node'))).toBe(
      true,
    );
    // npm's shell and the server write to npm's own stdout and stderr: those pipes close (the child's 'close')
    // once the last of them has exited, the grandchild included.
    let closed = false;
    npm.once('close', () => (closed = true));
    process.kill(npm.pid!, 'SIGTERM');
    // Within 10 s; if not, the survivors are named below.
    await until(() => closed, "npm's output to close", 10_000).catch(() => undefined);
    expect([...tree].filter(([pid]) => alive(pid)).map(([, cmd]) => cmd)).toEqual([]);
  } finally {
    for (const pid of [npm.pid!, ...tree.keys()]) if (alive(pid)) process.kill(pid, 'SIGKILL');
  }
}

describe('npm start as a process tree', () => {
  it('SIGTERM to the npm process stops the server too (no orphan)', () => stopsWithNpm(), 60_000);

  it('stops with npm even when npm is stopped before the code after startServer has run', async () => {
    // The port answers as soon as it is open, before the server's code after `await startServer(…)` runs: a
    // server that read its parent only then would read the new one (npm's shell already gone) and live on.
    // The preload holds that code 3 s after the port opens (as a busy machine may).
    const preload = fileURLToPath(new URL('fixtures/slowAfterListen.mjs', import.meta.url));
    await stopsWithNpm({ NODE_OPTIONS: `--import ${preload}`, SLOW_AFTER_LISTEN_MS: '3000' });
  }, 60_000);
});

/**
 * A stdio transport to a host's command exactly as written (its command, arguments, environment and working
 * directory) that keeps every line the server writes on stdout: the SDK client skips lines that are not JSON,
 * some hosts do not, so the test reads them all.
 */
class HostStdio implements Transport {
  readonly lines: string[] = [];
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  #child: ChildProcess | undefined;
  #exited: Promise<void> | undefined;

  constructor(readonly host: HostCommand) {}

  async start(): Promise<void> {
    const child = spawn(this.host.command, this.host.args, {
      // Hosts start servers from anywhere; MCP Inspector is run from the checkout.
      cwd: this.host.host === 'inspector' ? root : tmpdir(),
      env: { ...getDefaultEnvironment(), ...this.host.env },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    this.#child = child;
    this.#exited = new Promise((resolve) => child.once('exit', () => (this.onclose?.(), resolve())));
    child.on('error', (error) => this.onerror?.(error));
    let pending = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      pending += chunk.toString('utf8');
      for (let end = pending.indexOf('\n'); end !== -1; end = pending.indexOf('\n')) {
        const line = pending.slice(0, end);
        pending = pending.slice(end + 1);
        if (line.trim() === '') continue;
        this.lines.push(line);
        try {
          this.onmessage?.(JSON.parse(line) as JSONRPCMessage);
        } catch {
          // Not JSON: kept in `lines`, which the test checks.
        }
      }
    });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    this.#child!.stdin!.write(`${JSON.stringify(message)}\n`);
  }

  /** Ends stdin, as a host does: the server exits by itself. */
  async close(): Promise<void> {
    this.#child?.stdin?.end();
    await this.#exited;
  }
}

describe("the README's MCP host configs, launched exactly as written", () => {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const hosts = markedBlocks(readme, 'host').map((block) => hostCommand(block, root.replace(/\/$/, '')));

  it('documents Claude Desktop, Claude Code, VS Code, Cursor and MCP Inspector', () => {
    expect(hosts.map((h) => h.host).sort()).toEqual(['claude-code', 'claude-desktop', 'cursor', 'inspector', 'vscode']);
  });

  // Hosts whose configs launch the same command with the same arguments and environment (from the same folder:
  // every host but MCP Inspector starts servers from anywhere) would start the same process: it is launched
  // once, for all of them.
  const launches = new Map<string, HostCommand[]>();
  for (const host of hosts) {
    const key = JSON.stringify([host.host === 'inspector', host.command, host.args, host.env]);
    launches.set(key, [...(launches.get(key) ?? []), host]);
  }

  it('launch two distinct commands: MCP Inspector its own, the four others one and the same', () => {
    expect([...launches.values()].map((same) => same.map((h) => h.host).sort())).toEqual([
      ['inspector'],
      ['claude-code', 'claude-desktop', 'cursor', 'vscode'],
    ]);
  });

  it.each([...launches.values()].map((same) => [same.map((h) => h.host).join(', '), same[0]!] as const))(
    '%s: lists the tools and calls one over a clean stdout',
    async (_name, host) => {
      const transport = new HostStdio(host);
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
      // Every line on stdout is JSON-RPC, the first of them the answer to initialize (nothing printed before it).
      const lines = transport.lines.map((line) => {
        try {
          return JSON.parse(line) as unknown;
        } catch {
          return `not JSON: ${line}`;
        }
      });
      expect(lines).toEqual(lines.map(() => expect.objectContaining({ jsonrpc: '2.0' })));
      expect(lines[0]).toEqual(
        expect.objectContaining({ id: 0, result: expect.objectContaining({ serverInfo: expect.anything() }) }),
      );
    },
    60_000,
  );
});
