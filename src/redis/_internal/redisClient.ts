import type { Cluster, Redis } from 'ioredis';
import { FusionError } from '../../errors/FusionError.js';

/** What every Redis-backed part accepts: a single-node client or a Redis Cluster client. */
export type RedisClient = Redis | Cluster;

/** True for an ioredis `Cluster` (duck-typed, so that this module never loads ioredis at run time). */
export function isCluster(client: RedisClient): client is Cluster {
  return (client as { isCluster?: boolean }).isCluster === true;
}

/**
 * The hash tag of a key part: `{part}` with braces and `%` escaped, so that every key built around the same
 * part lands in the same cluster slot whatever the part contains (a `}` inside would end the tag early).
 */
export function hashTag(part: string): string {
  return `{${part.replace(/[%{}]/g, (c) => (c === '%' ? '%25' : c === '{' ? '%7B' : '%7D'))}}`;
}

/** Rejects a key prefix with braces: it would become the hash tag of every key and pin them all to one slot. */
export function checkPrefix(prefix: string, owner: string): string {
  if (/[{}]/.test(prefix)) {
    throw new FusionError(
      'REDIS_KEY_PREFIX',
      `${owner}: the key prefix "${prefix}" contains "{" or "}"; remove them (the store adds its own hash tags so that the keys of one session or workflow share a cluster slot).`,
      { prefix },
    );
  }
  return prefix;
}
