import type { ServerEvent } from '@modelcontextprotocol/server';

/** The Redis Cluster hash slot of a key or channel (CRC16/XMODEM of its hash tag, or of the whole name, mod 16384). */
export function keySlot(name: string): number {
  const open = name.indexOf('{');
  const close = open === -1 ? -1 : name.indexOf('}', open + 1);
  const tagged = close > open + 1 ? name.slice(open + 1, close) : name;
  let crc = 0;
  for (const byte of Buffer.from(tagged, 'utf8')) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc % 16_384;
}

/**
 * `count` channel names `<prefix>events:{<tag>}` whose slots fall one in each of `count` equal ranges of
 * the 16,384 slots, so that a cluster whose primaries own contiguous, even slot ranges (as `redis-cli
 * --cluster create` assigns them) holds an even share of the channels on every primary.
 */
export function eventChannels(prefix: string, count: number): string[] {
  if (!(Number.isInteger(count) && count >= 1 && count <= 1_024))
    throw new RangeError(`RedisEventBus: eventShards must be an integer from 1 to 1024 (got ${String(count)}).`);
  const channels: string[] = [];
  for (let shard = 0; shard < count; shard++) {
    const [low, high] = [Math.floor((shard * 16_384) / count), Math.floor(((shard + 1) * 16_384) / count)];
    for (let tag = 0; ; tag++) {
      const channel = `${prefix}events:{e${tag}}`;
      const slot = keySlot(channel);
      if (slot >= low && slot < high) {
        channels.push(channel);
        break;
      }
    }
  }
  return channels;
}

/** Which of `count` channels carries `event`: by its URI (a handle's or resource's updates keep their order), else its kind. */
export function shardOf(event: ServerEvent, count: number): number {
  const key = event.kind === 'resource_updated' ? event.uri : event.kind;
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % count;
}
