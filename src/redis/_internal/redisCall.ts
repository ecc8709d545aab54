import type { RedisClient } from './redisClient.js';

/** Runs one store operation, rewording ioredis failures so that the error a client sees says what is wrong with Redis. */
export async function redisCall<T>(client: RedisClient, operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // ioredis may still say `ready` for a moment after its socket closed; these messages mean the same.
    if (client.status !== 'ready' || /Stream isn't writeable|Connection is closed/.test(message))
      throw new Error(`Redis is not connected (${client.status}; ${message})`, { cause: error });
    if (/timed? ?out/i.test(message)) throw new Error(`Redis did not answer in time (${message})`, { cause: error });
    throw new Error(`Redis command failed (${message})`, { cause: error });
  }
}
