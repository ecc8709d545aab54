import { connect, type Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { until } from '../_helpers/waitFor.js';
import { startChildServer } from './_childServer.js';
import { closeAgents, modernRequest, postFrom } from './_peerRequest.js';

afterAll(closeAgents);

/** Opens a socket from `peer` and starts a request whose headers never end (a slow-headers client). */
function slowClient(port: number, peer: string): Promise<Socket> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1', localAddress: peer });
    socket.on('error', () => {});
    socket.once('connect', () => {
      socket.write('POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
      resolve(socket);
    });
    socket.once('close', () => resolve(socket));
  });
}

/**
 * 1,100 sockets from one loopback peer sending their headers slowly, against the default connection budgets
 * (1,024 sockets, 128 per peer) of a child process capped at 256 MiB. Limits named: 1,100 sockets, 100 opened
 * at a time, then 30 fresh requests from another peer, 10 at a time; the test ends within 30 s (well before the 10 s headers
 * timeout would free the slow sockets). Stated: past its share the slow peer's sockets are closed at once;
 * every fresh request from the other peer is answered, each within 1 s; the child survives.
 */
describe('abuse: one peer holding sockets with slow headers', () => {
  it('keeps the slow peer to its share of sockets and serves another peer at once', async () => {
    await using server = await startChildServer('test/abuse/fixtures/server.ts');
    const sockets: Socket[] = [];
    for (let batch = 0; batch < 11; batch++)
      sockets.push(...(await Promise.all(Array.from({ length: 100 }, () => slowClient(server.port, '127.0.0.2')))));
    // Closed sockets were closed at once by the server; let the last closes arrive (bounded: 5 s).
    await until(() => sockets.filter((s) => !s.destroyed).length <= 128, 'the closes').catch(() => {});
    expect(sockets.filter((s) => !s.destroyed)).toHaveLength(128);
    const list = modernRequest('tools/list');
    const fresh = [];
    for (let wave = 0; wave < 3; wave++)
      fresh.push(
        ...(await Promise.all(
          Array.from({ length: 10 }, () => postFrom('127.0.0.3', server.url, list.body, list.headers)),
        )),
      );
    expect(fresh.map((a) => a.status)).toEqual(Array(30).fill(200));
    expect(fresh.filter((a) => a.ms >= 1_000).map((a) => Math.round(a.ms))).toEqual([]);
    expect(server.alive(), server.stderr()).toBe(true);
    for (const s of sockets) s.destroy();
  }, 30_000);
});
