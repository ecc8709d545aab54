import type { FsmSnapshot } from '../../fsm/types.js';
import { luaScript } from './runScript.js';

// Every script touches the keys of one workflow key only (`state:{k}`, `lock:{k}`: one hash tag, one slot).

// Writes a snapshot hash and its expiry together; with ARGV[1] == '1', only over the expected version.
// ARGV: compare, expected version, version, JSON, expiresAt, ttlMs.
const WRITE_BODY = `
if ARGV[o+1] == '1' and (redis.call('HGET', KEYS[1], 'v') or '') ~= ARGV[o+2] then return 0 end
redis.call('HSET', KEYS[1], 'v', ARGV[o+3], 'd', ARGV[o+4])
if ARGV[o+5] ~= '' then redis.call('PEXPIREAT', KEYS[1], ARGV[o+5])
elseif ARGV[o+6] ~= '' then redis.call('PEXPIRE', KEYS[1], ARGV[o+6])
else redis.call('PERSIST', KEYS[1]) end
return 1`;

/** KEYS: state. ARGV: the write arguments. */
export const WRITE = luaScript(`local o = 0${WRITE_BODY}`);

/**
 * Takes the lock and reads the snapshot in one step. KEYS: state, lock. ARGV: token, lease ms, load ('1'/'0').
 * Returns {1, JSON or nil} when taken, {0, remaining lease ms} when another holder has it.
 */
export const ACQUIRE = luaScript(`
if redis.call('SET', KEYS[2], ARGV[1], 'NX', 'PX', ARGV[2]) then
  if ARGV[3] == '1' then return {1, redis.call('HGET', KEYS[1], 'd')} end
  return {1, false}
end
return {0, redis.call('PTTL', KEYS[2])}`);

/**
 * Ends a lease: releases the lock if it still holds the token, and with ARGV[2] == '1' first writes
 * (compare-and-set) — only while the lease is held. KEYS: state, lock. ARGV: token, write, the write
 * arguments. Returns 1 written or released, 0 version conflict (or lock not held, without a write), -1 lease lost.
 */
export const END = luaScript(`
local held = redis.call('GET', KEYS[2]) == ARGV[1]
if held then redis.call('DEL', KEYS[2]) end
if ARGV[2] ~= '1' then return held and 1 or 0 end
if not held then return -1 end
local o = 2${WRITE_BODY}`);

/** Renews a held lease. KEYS: state, lock. ARGV: token, lease ms. */
export const RENEW = luaScript(
  `if redis.call('GET', KEYS[2]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[2], ARGV[2]) end return 0`,
);

/** Releases a lock only if it holds the token. KEYS: state, lock. ARGV: token. */
export const RELEASE = luaScript(
  `if redis.call('GET', KEYS[2]) == ARGV[1] then return redis.call('DEL', KEYS[2]) end return 0`,
);

/** The write arguments of a snapshot (see WRITE). */
export function writeArgs(
  compare: boolean,
  expected: number | undefined,
  snapshot: FsmSnapshot,
  ttlMs: number | undefined,
): string[] {
  return [
    compare ? '1' : '0',
    expected === undefined ? '' : String(expected),
    snapshot.version === undefined ? '' : String(snapshot.version),
    JSON.stringify(snapshot),
    snapshot.expiresAt === undefined ? '' : String(Math.ceil(snapshot.expiresAt)),
    ttlMs === undefined ? '' : String(Math.max(1, Math.ceil(ttlMs))),
  ];
}
