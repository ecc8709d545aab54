import { connect, createServer, type Socket } from 'node:net';

/** A TCP proxy on 127.0.0.1 that can cut every open connection and send new ones elsewhere. */
export interface DropProxy extends AsyncDisposable {
  /** `http://127.0.0.1:<port>/mcp` through the proxy. */
  readonly url: URL;
  /** Where new connections go from now on. */
  target: number;
  /** Destroys every open connection (both sides), as a network failure would. */
  drop(): void;
  /** Connections accepted so far. */
  readonly accepted: number;
  /** New connections wait (accepted, not forwarded) until {@link release}: a client's reconnect is held. */
  hold(): void;
  /** Forwards the held connections and every new one again. */
  release(): void;
  /** Connections waiting while held. */
  readonly held: number;
}

/** Starts a proxy to `target` (a port on 127.0.0.1); ready once it listens. */
export async function dropProxy(target: number, path = '/mcp'): Promise<DropProxy> {
  const open = new Set<Socket>();
  let accepted = 0;
  const state = { target };
  let holding = false;
  const waiting: Socket[] = [];
  const forward = (client: Socket): void => {
    const upstream = connect(state.target, '127.0.0.1');
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on('close', () => open.delete(socket));
      socket.on('error', () => {});
    }
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.resume();
  };
  const server = createServer({ pauseOnConnect: true }, (client) => {
    accepted++;
    if (holding) waiting.push(client);
    else forward(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const drop = (): void => {
    for (const socket of [...open]) socket.destroy();
  };
  return {
    url: new URL(`http://127.0.0.1:${port}${path}`),
    get target() {
      return state.target;
    },
    set target(value: number) {
      state.target = value;
    },
    get accepted() {
      return accepted;
    },
    drop,
    hold: () => void (holding = true),
    release: () => {
      holding = false;
      for (const client of waiting.splice(0)) forward(client);
    },
    get held() {
      return waiting.length;
    },
    async [Symbol.asyncDispose]() {
      drop();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
