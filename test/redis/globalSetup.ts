import type { TestProject } from 'vitest/node';
import { startRedisServer } from './redisServer.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** `redis://127.0.0.1:<port>` of the private redis-server every test run starts. */
    redisUrl: string;
  }
}

/**
 * Starts one private redis-server for the whole run (no persistence, 127.0.0.1, a free port) and stops it
 * afterwards. Tests read its URL with `inject('redisUrl')`; nothing is skipped when Redis is missing —
 * the run fails with the command to install it (scripts/test.sh installs it when it can).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await startRedisServer();
  project.provide('redisUrl', server.url);
  return () => server.stop();
}
