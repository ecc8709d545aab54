import { Server as HttpServer } from 'node:http';
import { connect, type Socket } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import type { Clock } from '../../src/_internal/clock.js';
import { initFusion, startServer } from '../../src/index.js';
import { createClock } from '../../src/testing/index.js';
import { pooledFetch, texts, v2HttpClient } from '../_helpers/clients.js';
import { until } from '../_helpers/waitFor.js';

const f = initFusion();
const registry = f.registry().register(
  f
    .query('ping')
    .describe('Answers pong')
    .handle(() => 'pong'),
);

/** How long a drained server with clients to tell still answers 503 (startServer's LINGER_MS). */
const LINGER_MS = 250;
/** How long a connection accepted once the shutdown began gets to speak (shutDown.ts's FIRST_BYTE_MS). */
const FIRST_BYTE_MS = 100;

/** A test clock that also records the delay of every timer set on it. */
function recordingClock() {
  const clock = createClock();
  const delays: number[] = [];
  const recording: Clock = {
    now: clock.now,
    setTimeout: (fn, ms) => (delays.push(ms), clock.setTimeout(fn, ms)),
    setInterval: (fn, ms) => clock.setInterval(fn, ms),
  };
  return { clock, recording, delays };
}

/**
 * Watches every node:http server's accepted connections (a spy on its `emit`): `accepted(socket)` is true once
 * the server accepted the client socket `socket`. Restore the spy after the test.
 */
function watchAccepts() {
  const emit = vi.spyOn(HttpServer.prototype, 'emit');
  const accepted = (client: Socket): boolean =>
    (emit.mock.calls as unknown as [string | symbol, ...unknown[]][]).some(
      ([event, socket]) => event === 'connection' && (socket as Socket).remotePort === client.localPort,
    );
  return { accepted, restore: () => emit.mockRestore() };
}

/** `close()`, and whether it has returned yet. */
function closing(server: { close(): Promise<void> }): { closed: Promise<void>; done: () => boolean } {
  let done = false;
  const closed = server.close().then(() => void (done = true));
  return { closed, done: () => done };
}

/**
 * A server on a recording clock whose legacy client holds a stream, closed: resolves once the shutdown
 * lingers (its LINGER_MS timer armed on the clock). `client` is the legacy client, to close at the end.
 */
async function lingering() {
  const { clock, recording, delays } = recordingClock();
  const server = await startServer(registry, { port: 0, clock: recording });
  const client = await v2HttpClient(server.url, 'legacy');
  await client.streamOpen;
  const { closed, done } = closing(server);
  await until(() => delays.includes(LINGER_MS), 'the linger to be armed on the clock');
  return { clock, delays, server, client, closed, done };
}

/** A raw HTTP/1.1 request of a JSON-RPC ping to /mcp, as a socket writes it. */
const PING_REQUEST = (() => {
  const body = '{"jsonrpc":"2.0","id":1,"method":"ping"}';
  return `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
})();

/** A legacy `initialize`, which the server answers 200, keeping the connection. */
const INITIALIZE_BODY = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1.0.0' } },
});

/** {@link INITIALIZE_BODY} as a socket writes its request. */
const INITIALIZE_REQUEST = (() => {
  const body = INITIALIZE_BODY;
  return `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
})();

// Every wait of a shutdown is on the server's clock: with a test clock that never moves, a close that waited
// (a linger, a drain, a bound on the last answers) could not return.
describe('closing a started server', () => {
  it('returns without waiting when no socket is open, leaving no timer behind', async () => {
    const { clock, recording } = recordingClock();
    const server = await startServer(registry, { port: 0, clock: recording });
    const startedAt = clock.now();
    // No global timer either: close() is awaited as it is, with no polling of ours in between.
    const globalTimers = vi.spyOn(globalThis, 'setTimeout');
    try {
      await server.close();
      expect(globalTimers).not.toHaveBeenCalled();
    } finally {
      globalTimers.mockRestore();
    }
    expect(clock.now()).toBe(startedAt);
    expect(clock.pending).toBe(0);
    // The port is released: a new connection is refused.
    await expect(fetch(server.url, { method: 'POST' })).rejects.toThrow();
  });

  it('with an idle keep-alive socket that carried a request, answers 503 for a while on the clock', async () => {
    // A proxy or a client's pool may send down such a socket at any moment: a reset there is a lost request.
    const { clock, recording, delays } = recordingClock();
    const server = await startServer(registry, { port: 0, clock: recording });
    // A pool that keeps its connection after the answer (until it is closed at the end).
    const pool = pooledFetch();
    try {
      const answer = await pool.fetch(server.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: INITIALIZE_BODY,
      });
      expect(answer.status).toBe(200);
      await answer.arrayBuffer();
      const { closed, done } = closing(server);
      await until(() => delays.includes(LINGER_MS), 'the linger to be armed on the clock');
      expect(done()).toBe(false);
      await clock.advanceAsync(LINGER_MS);
      await closed;
      expect(done()).toBe(true);
    } finally {
      await pool.close();
    }
  });

  it('ends that while once the idle sockets are closed by their clients: nobody is left to tell', async () => {
    const { recording, delays } = recordingClock();
    const server = await startServer(registry, { port: 0, clock: recording });
    const socket = connect(server.port!, '127.0.0.1');
    socket.on('error', () => {});
    const answered = new Promise<string>((resolve) => socket.once('data', (chunk: Buffer) => resolve(String(chunk))));
    socket.write(INITIALIZE_REQUEST);
    expect(await answered).toMatch(/^HTTP\/1\.1 200 /);
    // Kept alive: it carried a request, so the shutdown lingers for it on the clock.
    const { closed, done } = closing(server);
    await until(() => delays.includes(LINGER_MS), 'the linger to be armed on the clock');
    expect(done()).toBe(false);
    // The clock stands still: close() returns because the client closed its socket, not because time passed.
    socket.destroy();
    await until(done, 'close() to return once the idle socket is gone');
    await closed;
  });

  it('closes at once after a client that closed its connection pool first (the SDK client of the test helpers)', async () => {
    const { recording, delays } = recordingClock();
    const server = await startServer(registry, { port: 0, clock: recording });
    {
      await using client = await v2HttpClient(server.url, 'auto');
      expect(texts((await client.callTool({ name: 'ping', arguments: {} })) as never)).toEqual(['pong']);
    }
    const { closed, done } = closing(server);
    // The pool's sockets are gone or going: the shutdown does not linger past them on the clock that stands still.
    await until(done, 'close() to return after the client closed its pool');
    await closed;
    expect(done()).toBe(true);
    expect(delays.filter((ms) => ms === LINGER_MS).length).toBeLessThanOrEqual(1);
  });

  it('cuts a connection that never sent a byte at once (it holds no request)', async () => {
    const clock = createClock();
    const server = await startServer(registry, { port: 0, clock });
    const watch = watchAccepts();
    try {
      const spare = connect(server.port!, '127.0.0.1');
      await new Promise<void>((resolve) => spare.once('connect', () => resolve()));
      // Accepted before the shutdown began: a client's spare connection, not a request on its way.
      await until(() => watch.accepted(spare), 'the server to accept the spare connection');
      const gone = new Promise<void>((resolve) => spare.once('close', () => resolve()));
      spare.on('error', () => {});
      const { closed, done } = closing(server);
      // The clock stands still: a close waiting for that connection would wait for its bound on the clock.
      await until(done, 'close() to return with a silent connection open');
      await closed;
      await gone;
    } finally {
      watch.restore();
    }
  });

  it('with a stream open, answers 503 for a while on the clock before it stops listening', async () => {
    // The app ended the stream and closed the session; the server lingers on the clock.
    const { clock, server, client, closed, done } = await lingering();
    expect((await fetch(server.url, { method: 'POST', body: '{}' })).status).toBe(503);
    expect(done()).toBe(false);
    await clock.advanceAsync(LINGER_MS);
    await closed;
    expect(done()).toBe(true);
    await client.close().catch(() => {});
  });

  it('hears a connection accepted as it stops listening that speaks only then, and cuts one silent for long', async () => {
    // A proxy opens a connection per request and writes once connected: under load, the request may come after
    // the listener closed. Cut as a spare connection, it would be a reset (a 502) for a request never seen. A
    // connection silent for FIRST_BYTE_MS since its accept (a pool's, opened ahead) is cut as before.
    const watch = watchAccepts();
    const open = async (port: number): Promise<{ socket: Socket; answer: Promise<string> }> => {
      const socket = connect(port, '127.0.0.1');
      socket.on('error', () => {});
      await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
      await until(() => watch.accepted(socket), 'the server to accept the connection');
      const answer = new Promise<string>((resolve) => {
        let text = '';
        socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        socket.once('close', () => resolve(text));
      });
      return { socket, answer };
    };
    try {
      const { clock, delays, server, client, closed, done } = await lingering();
      // One connection at the start of the linger, one at its last millisecond: both silent.
      const early = await open(server.port!);
      await clock.advanceAsync(LINGER_MS - 1);
      const late = await open(server.port!);
      // The linger ends: the listener closes (a new connection is refused), and the late connection gets the rest
      // of its moment; the early one (silent for the whole linger) is cut once the late one is heard.
      await clock.advanceAsync(1);
      await until(() => delays.includes(FIRST_BYTE_MS - 1), 'the late connection to get its moment');
      const refused = connect(server.port!, '127.0.0.1');
      await expect(
        new Promise((resolve, reject) => refused.once('connect', resolve).once('error', reject)),
      ).rejects.toMatchObject({ code: 'ECONNREFUSED' });
      expect(done()).toBe(false);
      late.socket.write(PING_REQUEST);
      const text = await late.answer;
      expect(text).toMatch(/^HTTP\/1\.1 503 /);
      expect(text.toLowerCase()).toContain('retry-after: 1');
      expect(await early.answer).toBe('');
      await closed;
      await client.close().catch(() => {});
    } finally {
      watch.restore();
    }
  });

  it('accepts a connection waiting in the backlog when the linger ends, rather than reset it with the listener', async () => {
    // A busy process accepts late: the kernel completed the connection, the client sent its request, and the
    // server has not polled its listener yet when the linger's timer fires. Closing the listener then would
    // reset that connection: a request the client sent, lost.
    const { clock, server, client, closed } = await lingering();
    const late = connect(server.port!, '127.0.0.1');
    const answer = new Promise<string>((resolve) => {
      let text = '';
      late.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      late.on('error', (error: NodeJS.ErrnoException) => (text += `error ${error.code ?? error.message}`));
      late.once('close', () => resolve(text));
    });
    late.write(PING_REQUEST);
    // net.connect() connects on the next tick; the loopback handshake completes in the kernel at once. Then the
    // linger's timer fires, with no turn of the event loop in between: the connection still waits in the backlog.
    await new Promise<void>((resolve) => process.nextTick(resolve));
    clock.advance(LINGER_MS);
    const text = await answer;
    expect(text).toMatch(/^HTTP\/1\.1 503 /);
    await closed;
    await client.close().catch(() => {});
  });
});
