import { createHash } from 'node:crypto';
import type { RedisClient } from './redisClient.js';

/** A Lua script and its SHA-1, run with EVALSHA (falling back to EVAL once after a SCRIPT FLUSH, a restart or on a new cluster node). */
export interface LuaScript {
  readonly source: string;
  readonly sha: string;
}

export function luaScript(source: string): LuaScript {
  return { source, sha: createHash('sha1').update(source).digest('hex') };
}

/** Runs a script on the node that owns its keys (all keys of one script share a hash tag, so one slot). */
export async function runScript(
  client: RedisClient,
  script: LuaScript,
  keys: readonly string[],
  args: ReadonlyArray<string | number>,
): Promise<unknown> {
  try {
    return await client.evalsha(script.sha, keys.length, ...keys, ...args);
  } catch (error) {
    if (!String((error as Error)?.message).includes('NOSCRIPT')) throw error;
    return client.eval(script.source, keys.length, ...keys, ...args);
  }
}
