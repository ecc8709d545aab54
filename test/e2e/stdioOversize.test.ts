import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { StdioLineTransport } from '../../src/server/stdio/StdioLineTransport.js';
import { sourceChild } from '../_helpers/sourceChild.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const init = (id: number) =>
  `${JSON.stringify({ jsonrpc: '2.0', id, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } })}\n`;

/** Limits named: one line of 11 MiB (over the 10 MiB default), then a normal request; 30 s at most. */
describe('stdio: a line over the 10 MiB limit', () => {
  it('is answered with an error and logged, and the server keeps serving the next request', async () => {
    const child = spawn(process.execPath, [...sourceChild('examples/workspace/main.ts'), '--stdio'], {
      cwd: root,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const lines: any[] = [];
    let stderr = '';
    let buffered = '';
    child.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString('utf8')));
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      for (let end = buffered.indexOf('\n'); end !== -1; end = buffered.indexOf('\n')) {
        lines.push(JSON.parse(buffered.slice(0, end)));
        buffered = buffered.slice(end + 1);
      }
    });
    const until = async (check: () => boolean): Promise<void> => {
      for (const end = Date.now() + 20_000; !check();) {
        if (Date.now() > end)
          throw new Error(
            `timed out; stdout lines: ${JSON.stringify(lines).slice(0, 500)}; stderr: ${stderr.slice(0, 500)}`,
          );
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    let exitCode: number | null | undefined;
    child.once('exit', (code) => void (exitCode = code));
    try {
      const huge = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{"blob":"${'a'.repeat(11 * 1024 * 1024)}"}}}\n`;
      child.stdin.write(huge);
      child.stdin.write(init(2));
      await until(() => lines.some((m) => m.id === 2));
      expect(lines[0]).toMatchObject({
        jsonrpc: '2.0',
        id: null,
        error: {
          code: -32600,
          message: expect.stringContaining('Request too large: a message of more than 10485760 bytes'),
        },
      });
      expect(lines.find((m) => m.id === 2).result.serverInfo.name).toBe('mcp-fusion-workspace');
      expect(stderr).toContain('stdio: Request too large');
      expect(exitCode).toBeUndefined();
    } finally {
      child.kill('SIGKILL');
    }
  }, 30_000);
});

describe('StdioLineTransport', () => {
  it('skips an oversized line split over many chunks, and parses the lines around it', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const logged: string[] = [];
    const transport = new StdioLineTransport({ stdin, stdout, maxLineBytes: 64, log: (l) => void logged.push(l) });
    const received: unknown[] = [];
    transport.onmessage = (m) => void received.push(m);
    await transport.start();
    stdin.write('{"jsonrpc":"2.0","method":"a"}\n{"jsonrpc":"2.0",');
    for (let i = 0; i < 10; i++) stdin.write('"x":"' + 'y'.repeat(20) + '",');
    stdin.write('"method":"b"}\n{"jsonrpc":"2.0","method":"c"}\n');
    await new Promise((r) => setImmediate(r));
    expect(received).toEqual([
      { jsonrpc: '2.0', method: 'a' },
      { jsonrpc: '2.0', method: 'c' },
    ]);
    expect(logged).toHaveLength(1);
    expect(JSON.parse(stdout.read().toString('utf8'))).toMatchObject({ id: null, error: { code: -32600 } });
    await transport.close();
  });

  it('refuses a __proto__ argument key with -32602 instead of letting the schema drop it', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const transport = new StdioLineTransport({ stdin, stdout });
    const received: unknown[] = [];
    transport.onmessage = (m) => void received.push(m);
    await transport.start();
    stdin.write(
      '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"echo","arguments":{"__proto__":{"x":1}}}}\n',
    );
    await new Promise((r) => setImmediate(r));
    expect(received).toEqual([]);
    expect(JSON.parse(stdout.read().toString('utf8'))).toEqual({
      jsonrpc: '2.0',
      id: 4,
      error: {
        code: -32602,
        message:
          'Invalid arguments for tool "echo": __proto__ is not an accepted field (unknown field). Remove it and call the tool again.',
      },
    });
    await transport.close();
  });
});
