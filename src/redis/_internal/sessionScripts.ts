import { luaScript } from './runScript.js';

/**
 * KEYS[1] a session record (a JSON string); ARGV: expected version, the new record's JSON, ttl ms. Writes the
 * record only when the stored one's `version` (0 when absent, or no record) is the expected one: 1, else 0.
 */
export const COMPARE_AND_SET = luaScript(`
local cur = redis.call('GET', KEYS[1])
local version = 0
if cur then version = tonumber(cjson.decode(cur).version) or 0 end
if version ~= tonumber(ARGV[1]) then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
return 1
`);
