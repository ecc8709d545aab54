import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BullTaskQueue, failFastRedisOptions } from '../../src/redis/index.js';
import { startRedisServer, type RedisServer } from './redisServer.js';

/** ioredis' `retryStrategy` counting its reconnection attempts (50 ms apart), with a wait for the next ones. */
function countedRetries() {
  let attempts = 0;
  const waiters: Array<{ at: number; resolve: () => void }> = [];
  return {
    retryStrategy: (): number => {
      attempts++;
      for (const w of waiters.splice(0))
        if (attempts >= w.at) w.resolve();
        else waiters.push(w);
      return 50;
    },
    get attempts() {
      return attempts;
    },
    /** Resolves once `more` further attempts were made. */
    further(more: number): Promise<void> {
      const at = attempts + more;
      return new Promise((resolve) => waiters.push({ at, resolve }));
    },
  };
}

/**
 * `BullTaskQueue.close()` once the queue's Redis is gone (its server stopped): BullMQ's `QUIT` would wait for a
 * reconnection (the offline queue) or fail on the closed stream (fail-fast options), and ioredis, left
 * reconnecting with BullMQ's error listener removed, printed "[ioredis] Unhandled error event" on every attempt.
 * Stated without timing: close() resolves within one reconnection attempt of the queue's client, and over three
 * attempts of a witness client (same backoff, same dead port) afterwards the queue's client makes none and
 * nothing reaches console.error, stderr or the process' error events.
 */
describe('BullTaskQueue.close() when its Redis is gone (real redis-server, stopped)', () => {
  let server: RedisServer;
  let heard: string[];
  const onProcessError = (error: unknown) => void heard.push(`process: ${String(error)}`);
  beforeEach(async () => {
    server = await startRedisServer();
    heard = [];
    vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void heard.push(args.join(' ')));
    const write = process.stderr.write.bind(process.stderr) as (chunk: string | Uint8Array) => boolean;
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      heard.push(String(chunk));
      return write(chunk);
    });
    process.on('uncaughtException', onProcessError);
    process.on('unhandledRejection', onProcessError);
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    process.off('uncaughtException', onProcessError);
    process.off('unhandledRejection', onProcessError);
    await server.stop();
  });

  const cases = [
    { name: 'default connection options (offline queue on)', failFast: false, noticed: true },
    { name: 'fail-fast connection options (offline queue off)', failFast: true, noticed: true },
    { name: 'closed right after Redis stopped, before the client noticed', failFast: false, noticed: false },
  ];
  for (const { name, failFast, noticed } of cases)
    it(`${name}: close() resolves at once and leaves nothing reconnecting or printing`, async () => {
      const retries = countedRetries();
      const options = failFast ? failFastRedisOptions({ retryStrategy: retries.retryStrategy }) : {};
      const connection = { host: '127.0.0.1', port: server.port, ...options, retryStrategy: retries.retryStrategy };
      const queue = new BullTaskQueue({ connection, prefix: `close-${Math.random().toString(36).slice(2)}` });
      await queue.enqueue('task-1', 1);
      await server.stop();
      // Noticed: ioredis lost the connection and is reconnecting (the signal: its first attempt).
      if (noticed) await retries.further(1);
      const before = retries.attempts;
      await queue.close();
      expect(retries.attempts - before).toBeLessThanOrEqual(1);
      const closedAt = retries.attempts;
      // A witness on the same dead port with the same backoff: three of its attempts span three of the queue's.
      const witness = countedRetries();
      const probe = new Redis({ host: '127.0.0.1', port: server.port, lazyConnect: true, ...witness });
      probe.on('error', () => {});
      void probe.connect().catch(() => {});
      await witness.further(3);
      probe.disconnect();
      expect(retries.attempts).toBe(closedAt);
      expect(heard.filter((line) => /Unhandled error event|ECONNREFUSED|process:/.test(line))).toEqual([]);
    });
});
