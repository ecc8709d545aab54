import { createServer } from 'node:net';

/** A TCP port on 127.0.0.1 that nothing listened on a moment ago (bound to port 0, read, closed). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}
