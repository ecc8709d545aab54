import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

/** A Lua script and its SHA-1, run with EVALSHA (falling back to EVAL once after a SCRIPT FLUSH or restart). */
export interface LuaScript {
  readonly source: string;
  readonly sha: string;
}

export function luaScript(source: string): LuaScript {
  return { source, sha: createHash('sha1').update(source).digest('hex') };
}

export async function runScript(client: Redis, script: LuaScript, keys: readonly string[], args: ReadonlyArray<string | number>): Promise<unknown> {
  try {
    return await client.evalsha(script.sha, keys.length, ...keys, ...args);
  } catch (error) {
    if (!String((error as Error)?.message).includes('NOSCRIPT')) throw error;
    return client.eval(script.source, keys.length, ...keys, ...args);
  }
}
