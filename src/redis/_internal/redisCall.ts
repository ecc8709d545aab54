import type { RedisClient } from './redisClient.js';

/** Runs one store operation, rewording ioredis failures so that the error a client sees says what is wrong with Redis. */
export async function redisCall<T>(client: RedisClient, operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (client.status !== 'ready') throw new Error(`Redis is not connected (${client.status}; ${message})`, { cause: error });
    if (/timed? ?out/i.test(message)) throw new Error(`Redis did not answer in time (${message})`, { cause: error });
    throw new Error(`Redis command failed (${message})`, { cause: error });
  }
}
