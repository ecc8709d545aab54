import type { Cluster } from 'ioredis';

/** The slot → master map of a cluster client, as ranges (`0-5460:host:port,…`): equal strings, equal layouts. */
export function layoutOf(cluster: Cluster): string {
  const slots = (cluster as { slots?: string[][] }).slots ?? [];
  const ranges: string[] = [];
  let start = 0;
  for (let slot = 1; slot <= slots.length; slot++) {
    if (slot === slots.length || slots[slot]?.[0] !== slots[start]?.[0]) {
      ranges.push(`${start}-${slot - 1}:${slots[start]?.[0] ?? ''}`);
      start = slot;
    }
  }
  return ranges.join(',');
}
