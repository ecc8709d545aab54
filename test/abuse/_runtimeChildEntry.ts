/**
 * The child side of test/abuse/_runtimeChild.ts: serves the fixture named by ABUSE_FIXTURE (a module whose
 * default export returns `{ registry, options }`) over HTTP on 127.0.0.1 and a free port, signals `ready`
 * over IPC, and answers `heap` requests with the heap in use after a full collection, and, when the fixture
 * also returns a test `clock`, `advance` requests by moving it (`ms`), letting each timer's work settle.
 */
import { startServer } from '../../src/index.js';

const fixture = (await import(process.env.ABUSE_FIXTURE!)) as {
  default: () => {
    registry: never;
    options?: Record<string, unknown>;
    clock?: { advanceAsync(ms: number): Promise<number> };
  };
};
const { registry, options, clock } = fixture.default();
const server = await startServer(registry, { ...options, transport: 'http', host: '127.0.0.1', port: 0 });
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});

process.on('message', (message: { type?: string; id?: number; ms?: number }) => {
  if (message.type === 'advance') {
    if (clock === undefined) throw new Error(`${process.env.ABUSE_FIXTURE} returns no clock to advance`);
    void clock.advanceAsync(message.ms!).then(() => process.send!({ type: 'advanced', id: message.id }));
    return;
  }
  if (message.type !== 'heap') return;
  gc();
  gc();
  process.send!({ type: 'heap', id: message.id, heapUsed: process.memoryUsage().heapUsed });
});
process.once('disconnect', () => void server.close().finally(() => process.exit(0)));
process.send!({ type: 'ready', url: server.url, port: server.port });
