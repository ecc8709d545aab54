import type { Server as HttpServer } from 'node:http';
import type { Socket } from 'node:net';
import type { Clock } from '../../_internal/clock.js';
import type { HttpDrain } from './HttpDrain.js';

/** A connection that has not sent a byte yet: its rank among every connection accepted (1 for the first), and when. */
export interface SilentSocket {
  readonly rank: number;
  readonly acceptedAt: number;
}

/** The connections that have not sent a byte yet (see {@link trackSilent}), and every connection open. */
export interface SilentSockets {
  readonly sockets: ReadonlyMap<Socket, SilentSocket>;
  /** Every connection open now, silent or not. */
  readonly open: ReadonlySet<Socket>;
  /** How many connections were accepted so far. */
  readonly accepted: number;
}

/**
 * Tracks the connections of `http` that have not sent a byte yet (accepted at `clock.now()`): a client's spare
 * connection holds no request and is cut at once by {@link shutDown}, unless it came once the shutdown began
 * (then it may be a request on its way).
 */
export function trackSilent(http: HttpServer, clock: Clock): SilentSockets {
  const sockets = new Map<Socket, SilentSocket>();
  const open = new Set<Socket>();
  let accepted = 0;
  http.on('connection', (socket: Socket) => {
    sockets.set(socket, { rank: ++accepted, acceptedAt: clock.now() });
    open.add(socket);
    const heard = (): void => void sockets.delete(socket);
    socket.once('data', heard).once('close', heard);
    socket.once('close', () => open.delete(socket));
  });
  return {
    sockets,
    open,
    get accepted() {
      return accepted;
    },
  };
}

/**
 * Drains, then stops: `503` to new requests; the exchanges under way (and the tool calls and tasks running)
 * get `drainMs` in all; `closeApp` then ends the streams and sessions, and the listener and sockets close.
 * With no exchange under way and no stream open when it starts (or their clients gone since), nothing waits:
 * it returns once the sockets closed. Every wait is on `clock`.
 */
export async function shutDown(
  http: HttpServer,
  closeApp: (drainMs: number) => Promise<void>,
  drain: HttpDrain,
  drainMs: number,
  clock: Clock,
  silent: SilentSockets,
): Promise<void> {
  const deadline = clock.now() + drainMs;
  // The connections accepted up to now; a later one came while the server shut down.
  const before = silent.accepted;
  drain.start();
  await drain.settled(drainMs);
  await closeApp(Math.max(0, deadline - clock.now()));
  // Clients answered last (or whose streams just ended) send their next request at once, maybe down an idle
  // keep-alive socket: answer it 503 (and close) for a moment before the idle sockets are closed, rather than
  // reset it as they close. So is a keep-alive socket that carried a request and sits idle now: a proxy or a
  // client's pool may send down it at any moment (a reset there is a 502 for a request never seen). Without
  // such a socket still open, there is nobody to tell. When no client was being answered as the drain began
  // and none was refused since, the idle sockets' clients may also go (a client that closes its pool): with the
  // last of them gone, nobody is left to tell and the linger ends there.
  // One turn of the loop first (it waits for no time): it takes in the connections their clients closed a
  // moment ago, which the kernel holds for this process already.
  await new Promise<void>((resolve) => setImmediate(resolve));
  const spoken = [...silent.open].filter((s) => !silent.sockets.has(s) && !s.destroyed);
  if (drain.clientsLeft || drain.refused > 0) await sleep(clock, LINGER_MS);
  else if (spoken.length > 0) {
    const lingerEnd = clock.now() + LINGER_MS;
    await goneOrAfter(spoken, clock, LINGER_MS);
    // A request refused meanwhile (503, its connection closed after it): its client may come back at once.
    if (drain.refused > 0) await sleep(clock, Math.max(0, lingerEnd - clock.now()));
  }
  // Connections the kernel completed while this process was busy wait in the listener's backlog, and closing
  // the listener resets them (a request the client sent already, lost): accept what waits there first.
  await acceptBacklog(silent);
  // New connections are refused from here on (a load balancer tries another instance), but no connection is
  // cut yet. One accepted an instant ago, since the shutdown began, that has not spoken yet may be a request
  // on its way (a proxy opens a connection per request and writes once connected): it gets FIRST_BYTE_MS from
  // its accept to be heard (and answered 503) before the idle ones are closed. One from before the shutdown is
  // a client's spare, and one silent for that long since (a pool's, opened ahead): cut.
  const closed = stopListening(http);
  const now = clock.now();
  const late = [...silent.sockets].filter(
    ([s, { rank, acceptedAt }]) => rank > before && acceptedAt + FIRST_BYTE_MS > now && !s.destroyed,
  );
  if (late.length > 0) {
    const until = Math.max(...late.map(([, { acceptedAt }]) => acceptedAt + FIRST_BYTE_MS));
    await heardOrGone(
      late.map(([s]) => s),
      silent.sockets,
      clock,
      until - now,
    );
  }
  http.closeIdleConnections();
  for (const socket of silent.sockets.keys()) socket.destroy();
  // Calls aborted at the deadline are answered now, and streams just ended: give those answers a moment to go
  // out; what is still open after that is cut.
  const timer = clock.setTimeout(() => http.closeAllConnections(), LAST_ANSWERS_MS);
  await closed;
  timer.cancel();
}

/**
 * Lets the event loop turn until a turn accepts no new connection (at most {@link BACKLOG_TURNS}): each turn
 * polls the listener, and accepts every connection its backlog holds. A turn waits for no time.
 */
async function acceptBacklog(silent: SilentSockets): Promise<void> {
  for (let turn = 0; turn < BACKLOG_TURNS; turn++) {
    const accepted = silent.accepted;
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (silent.accepted === accepted) return;
  }
}

/** How many turns of the loop {@link acceptBacklog} takes at most while connections keep coming. */
const BACKLOG_TURNS = 8;

/**
 * Closes the listener (resolving once every connection ended) without closing the idle connections, as
 * `http.close()` also does: its `closeIdleConnections()` call is made a no-op for that one call.
 */
function stopListening(http: HttpServer): Promise<void> {
  return new Promise<void>((resolve) => {
    http.closeIdleConnections = () => undefined;
    try {
      http.close(() => resolve());
    } finally {
      // Back to the prototype's method.
      Reflect.deleteProperty(http, 'closeIdleConnections');
    }
  });
}

/** Resolves once none of `sockets` is silent any more (it sent a byte or closed), or after `ms` of `clock`. */
function heardOrGone(
  sockets: Socket[],
  silent: ReadonlyMap<Socket, SilentSocket>,
  clock: Clock,
  ms: number,
): Promise<void> {
  return new Promise<void>((resolve) => {
    const check = (): void => {
      if (sockets.some((socket) => silent.has(socket))) return;
      timer.cancel();
      resolve();
    };
    const timer = clock.setTimeout(resolve, ms);
    for (const socket of sockets) socket.once('data', check).once('close', check);
    check();
  });
}

function sleep(clock: Clock, ms: number): Promise<void> {
  return new Promise<void>((resolve) => clock.setTimeout(resolve, ms));
}

/** Resolves once every one of `sockets` has closed, or after `ms` of `clock`. */
function goneOrAfter(sockets: Socket[], clock: Clock, ms: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const check = (): void => {
      if (sockets.some((socket) => !socket.destroyed)) return;
      timer.cancel();
      resolve();
    };
    const timer = clock.setTimeout(resolve, ms);
    for (const socket of sockets) socket.once('close', check);
    check();
  });
}

/** How long a drained server still answers 503 before it stops listening and closes its idle sockets. */
const LINGER_MS = 250;

/**
 * How long a connection accepted once the shutdown began gets, from its accept, to send its first byte before
 * the sockets are cut: a proxy writes its request as soon as it is connected, a busy machine's a moment later.
 */
const FIRST_BYTE_MS = 100;

/** How long the last answers (of calls aborted at the drain deadline, of ended streams) get before their sockets are cut. */
const LAST_ANSWERS_MS = 1_000;
