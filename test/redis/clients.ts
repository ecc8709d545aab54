import { randomUUID } from 'node:crypto';
import { Cluster, Redis, type ClusterOptions, type RedisOptions } from 'ioredis';
import { inject } from 'vitest';
import { failFastClusterOptions, failFastRedisOptions } from '../../src/redis/index.js';
import { closeAfterFile } from '../_helpers/closeAfterFile.js';

/** A fail-fast ioredis client to the run's private redis-server (or `url`), closed after the file's tests. */
export function redisClient(url: string = inject('redisUrl'), overrides: RedisOptions = {}): Redis {
  // With the offline queue off, commands issued before the connection is ready would fail: wait for it.
  const client = new Redis(url, failFastRedisOptions({ ...overrides }));
  client.on('error', () => {});
  return closeAfterFile(client);
}

/** A fail-fast ioredis Cluster client (sharded subscribers on), closed after the file's tests. */
export function clusterClient(nodes: Array<{ host: string; port: number }>, overrides: ClusterOptions = {}): Cluster {
  const client = new Cluster(nodes, failFastClusterOptions(overrides));
  client.on('error', () => {});
  return closeAfterFile(client);
}

/** Resolves once the client is connected. */
export async function ready<C extends Redis | Cluster>(client: C): Promise<C> {
  if (client.status !== 'ready') await new Promise((resolve) => client.once('ready', resolve));
  return client;
}

/** A key prefix no other test uses, so tests share one Redis without seeing each other's keys. */
export function uniquePrefix(name = 't'): string {
  return `test:${name}:${randomUUID().slice(0, 8)}:`;
}
