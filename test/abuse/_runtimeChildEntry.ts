/**
 * The child side of test/abuse/_runtimeChild.ts: serves the fixture named by ABUSE_FIXTURE (a module whose
 * default export returns `{ registry, options }`) over HTTP on 127.0.0.1 and a free port, signals `ready`
 * over IPC, and answers `heap` requests with the heap in use after a full collection.
 */
import { startServer } from '../../src/index.js';

const fixture = (await import(process.env.ABUSE_FIXTURE!)) as {
  default: () => { registry: never; options?: Record<string, unknown> };
};
const { registry, options } = fixture.default();
const server = await startServer(registry, { ...options, transport: 'http', host: '127.0.0.1', port: 0 });
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});

process.on('message', (message: { type?: string; id?: number }) => {
  if (message.type !== 'heap') return;
  gc();
  gc();
  process.send!({ type: 'heap', id: message.id, heapUsed: process.memoryUsage().heapUsed });
});
process.once('disconnect', () => void server.close().finally(() => process.exit(0)));
process.send!({ type: 'ready', url: server.url, port: server.port });
