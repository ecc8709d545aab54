import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * The first port of the kernel's ephemeral range (Linux's `ip_local_port_range`; 32768 where it cannot be
 * read). The kernel hands out ports from that range for `listen(0)` and for the local end of every outgoing
 * connection: a port taken from there and closed again may be in use by a client socket a moment later (under
 * load, with thousands of connections opened by the tests around, it was: "port … already in use").
 */
function ephemeralStart(): number {
  try {
    const first = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(first) && first > 2048 ? first : 32_768;
  } catch {
    return 32_768;
  }
}

const below = ephemeralStart();
/** Ports are drawn from [{@link FROM}, the ephemeral range): nothing else on the machine takes them on its own. */
const FROM = Math.max(1024, Math.min(20_000, below - 4096));

/** Whether a server can listen on `port` of 127.0.0.1 now (it is bound, then closed at once). */
function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.unref();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

/**
 * A TCP port on 127.0.0.1 that nothing listens on now, for a server that must know its port before it
 * starts. It lies below the kernel's ephemeral range, so no outgoing connection and no `listen(0)` takes
 * it meanwhile; the draw is random, so that test files running at once do not pick the same one.
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = FROM + Math.floor(Math.random() * (below - FROM));
    if (await bindable(port)) return port;
  }
  throw new Error(`freePort: no free port found in ${FROM}-${below - 1} after 50 draws`);
}
