import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { registry, workspaceOptions } from '../../examples/workspace/registry.js';
import { until } from '../_helpers/waitFor.js';
import { httpServer } from '../_helpers/clients.js';
import { modernRequest } from '../abuse/_peerRequest.js';

const LIMIT = 64 * 1024;

/** A raw connection that collects what the server answers, and whether (and how) it ended. */
function rawSocket(port: number): { socket: Socket; answer: () => string; ended: () => string | undefined } {
  const socket = connect(port, '127.0.0.1');
  let answer = '';
  let ended: string | undefined;
  socket.setEncoding('utf8');
  socket.on('data', (c: string) => void (answer += c));
  socket.on('error', (error: NodeJS.ErrnoException) => void (ended = error.code ?? 'error'));
  socket.on('close', () => void (ended ??= 'closed'));
  return { socket, answer: () => answer, ended: () => ended };
}

const head = (port: number, length: string) =>
  `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
  `Accept: application/json, text/event-stream\r\n${length}\r\n`;

/**
 * A body over `maxBodyBytes` is answered 413 at once; its rest flows by discarded (not buffered), so that a
 * client that writes its whole body before reading reads the answer (closing on unread bytes would reset the
 * connection and drop it), and the connection serves the next request. Past 4 × the limit, it is closed.
 */
describe('a refused body drains instead of resetting its answer away', () => {
  it('a naive client writing a declared 200 KB body (limit 64 KiB) whole reads the 413, then is served on the same connection', async () => {
    await using srv = await httpServer(registry, { ...workspaceOptions(), maxBodyBytes: LIMIT });
    const raw = rawSocket(srv.port!);
    const body = Buffer.alloc(200_000, 'x');
    await new Promise<void>((resolve) =>
      raw.socket.write(head(srv.port!, 'Content-Length: 200000\r\n'), () => resolve()),
    );
    await new Promise<void>((resolve) => raw.socket.write(body, () => resolve()));
    await until(() => raw.answer().includes('"error"') || raw.ended() !== undefined, 'the answer');
    expect(raw.ended()).toBeUndefined();
    const [status, rest] = [raw.answer().slice(0, 12), raw.answer().split('\r\n\r\n')[1]!];
    expect(status).toBe('HTTP/1.1 413');
    expect(raw.answer()).not.toMatch(/connection: close/i);
    expect(JSON.parse(rest).error.message).toBe(`Payload Too Large: the request body exceeds ${LIMIT} bytes.`);
    // The same connection serves the next request.
    const list = modernRequest('tools/list');
    const extra = Object.entries(list.headers)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('');
    const before = raw.answer().length;
    raw.socket.write(head(srv.port!, `${extra}Content-Length: ${Buffer.byteLength(list.body)}\r\n`) + list.body);
    await until(() => /HTTP\/1\.1 200/.test(raw.answer().slice(before)), 'the next answer on the same connection');
    raw.socket.destroy();
  });

  it('a chunked body that keeps coming past 4 × the limit is answered 413, then its connection is closed', async () => {
    await using srv = await httpServer(registry, { ...workspaceOptions(), maxBodyBytes: LIMIT });
    const raw = rawSocket(srv.port!);
    raw.socket.write(head(srv.port!, 'Transfer-Encoding: chunked\r\n'));
    const chunk = `${(16 * 1024).toString(16)}\r\n${'y'.repeat(16 * 1024)}\r\n`;
    let sent = 0;
    // Sent 16 KiB at a time, each once the last is written, until the server closes (bounded: 1 MiB at most).
    while (raw.ended() === undefined && sent < 1024 * 1024) {
      await new Promise<void>((resolve) => raw.socket.write(chunk, () => resolve()));
      sent += 16 * 1024;
      await new Promise((resolve) => setImmediate(resolve));
    }
    await until(() => raw.ended() !== undefined, 'the server to close the connection');
    expect(raw.answer()).toMatch(/^HTTP\/1\.1 413 /);
    expect(raw.answer()).toContain(`exceeds ${LIMIT} bytes`);
    // Closed once the discarded rest passed 4 × the limit (what was in flight aside), not after the whole megabyte.
    expect(sent).toBeLessThan(1024 * 1024);
  });
});
