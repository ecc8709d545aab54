import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { portAnswers } from '../_helpers/waitFor.js';
import { childModuleUrl, forkedChild } from '../_helpers/sourceChild.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const MiB = 2 ** 20;

interface UnreadChild extends AsyncDisposable {
  readonly url: string;
  alive(): boolean;
  heapMiB(): Promise<number>;
}

/**
 * The fixture `failingTool` in a child process at a 256 MiB heap whose stderr is a pipe that nobody ever
 * reads: a log reader that never reads. Ready once the child signals its port over IPC and that port answers.
 */
async function startUnreadChild(): Promise<UnreadChild> {
  const entry = forkedChild('test/abuse/_runtimeChildEntry.ts', ['test/abuse/fixtures/failingTool.ts']);
  const child = fork(entry.modulePath, [], {
    cwd: root,
    execArgv: ['--max-old-space-size=256', '--expose-gc', ...entry.execArgv],
    env: {
      ...process.env,
      NODE_OPTIONS: '',
      ABUSE_FIXTURE: childModuleUrl('test/abuse/fixtures/failingTool.ts'),
    },
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  const alive = (): boolean => child.exitCode === null && child.signalCode === null;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code, signal) => reject(new Error(`the child exited (${code ?? signal}) before it listened`)));
    child.on('message', (m: { type?: string; port?: number }) => void (m.type === 'ready' && resolve(m.port!)));
  });
  await portAnswers(port, { proc: child, ms: 15_000, what: 'the failingTool child' });
  let asked = 0;
  const heapMiB = (): Promise<number> =>
    new Promise((resolve, reject) => {
      const id = ++asked;
      const timer = setTimeout(() => reject(new Error('the child did not report its heap within 30 s')), 30_000);
      const onMessage = (m: { type?: string; id?: number; heapUsed?: number }): void => {
        if (m.type !== 'heap' || m.id !== id) return;
        clearTimeout(timer);
        child.off('message', onMessage);
        resolve(m.heapUsed! / MiB);
      };
      child.on('message', onMessage);
      child.send({ type: 'heap', id });
    });
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    alive,
    heapMiB,
    async [Symbol.asyncDispose]() {
      if (!alive()) return;
      child.kill('SIGKILL');
      await exited;
    },
  };
}

const meta = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
};

/** One raw 2026-07-28 `tools/call` of `parse` (a hostile client needs no SDK): the HTTP status and body. */
async function parse(url: string, body: string): Promise<{ status: number; body: string }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'parse',
    },
    body,
    // A deadline per call, so a call that never returns fails naming itself rather than timing the test out.
    signal: AbortSignal.timeout(60_000),
  });
  return { status: res.status, body: await res.text() };
}

/**
 * Issue 42's log attack: a failed call logged its whole multi-megabyte message raw, and with a slow stderr
 * reader the write queue grew until the 256 MiB heap ran out (~36 calls; ~7 in this fixture). Bounded: 40 calls, two in flight,
 * whose error message is ~3.9 MiB (with a forged line and an ANSI escape; the caller asks for the padding rather
 * than uploading it), against a child whose stderr pipe is never read. Stated: the child survives, every call gets its error result, its heap stays near its baseline
 * (each line is cut to a few KiB and at most 1 MiB of lines wait), and a fresh SDK client is still served.
 */
describe('abuse: a log reader that never reads', () => {
  it('survives 40 failing calls with ~4 MiB messages and still answers', async () => {
    await using child = await startUnreadChild();
    const baseline = await child.heapMiB();
    const call = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'parse', arguments: { text: '\n[INFO] forged \u001b[31m', pad: 3.9 * MiB }, _meta: meta },
    });
    const failed: number[] = [];
    for (let i = 0; i < 20; i++) {
      for (const { status, body } of await Promise.all([parse(child.url, call), parse(child.url, call)]))
        if (status === 200 && body.includes('"isError":true')) failed.push(status);
    }
    expect(child.alive()).toBe(true);
    expect(failed).toHaveLength(40);
    expect((await child.heapMiB()) - baseline).toBeLessThan(24);
    const client = new Client({ name: 'after-the-flood', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(child.url)));
    expect(await client.callTool({ name: 'ping', arguments: {} })).toMatchObject({
      content: [{ type: 'text', text: 'pong' }],
    });
    await client.close();
  }, 240_000);
});
