import { luaScript } from './runScript.js';

/**
 * KEYS[1] the owner's index of active tasks (a sorted set scored by expiry), KEYS[2] the owner's listing (a
 * sorted set of task positions, all scored 0, read by lex range); ARGV: now, max, task id, expiresAt,
 * position. Forgets expired entries, then adds the task to both if the owner has fewer than max active: 1,
 * else 0. Each key expires with the last of its tasks.
 */
export const ADMIT = luaScript(`
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[4], ARGV[3])
redis.call('ZADD', KEYS[2], 0, ARGV[5])
for i = 1, 2 do
  redis.call('PEXPIREAT', KEYS[i], ARGV[4], 'GT')
  if redis.call('PTTL', KEYS[i]) < 0 then redis.call('PEXPIREAT', KEYS[i], ARGV[4]) end
end
return 1
`);

/**
 * KEYS[1] the task hash { v: version, s: status, d: JSON }; ARGV: expected version, next status, next JSON.
 * Writes only over the expected version of an active task, so that of racing writers one wins and a
 * terminal task never changes.
 */
export const CAS = luaScript(`
local cur = redis.call('HMGET', KEYS[1], 'v', 's')
if not cur[1] then return 'final' end
if cur[2] == 'completed' or cur[2] == 'failed' or cur[2] == 'cancelled' then return 'final' end
if cur[1] ~= ARGV[1] then return 'conflict' end
redis.call('HSET', KEYS[1], 'v', tostring(tonumber(cur[1]) + 1), 's', ARGV[2], 'd', ARGV[3])
return 'ok'
`);

/**
 * KEYS[1] the owner's stored results (a sorted set of `<task id>:<bytes>` scored by expiry); ARGV: now, max
 * bytes, member, expiresAt. Forgets expired results, then counts the new one if the total stays within
 * max: 1, else 0.
 */
export const RESERVE = luaScript(`
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
local total = tonumber(string.match(ARGV[3], ':(%d+)$'))
for _, member in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  total = total + tonumber(string.match(member, ':(%d+)$'))
end
if total > tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[4], ARGV[3])
redis.call('PEXPIREAT', KEYS[1], ARGV[4], 'GT')
if redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIREAT', KEYS[1], ARGV[4]) end
return 1
`);
