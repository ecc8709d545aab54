import { Redis } from 'ioredis';

/** What one measured stretch cost Redis. */
export interface CommandCount {
  /** Commands clients sent (round trips), by name: MONITOR lines not issued from a script. */
  sent: Record<string, number>;
  /** Commands Redis executed, by name, scripts' inner commands included (`INFO commandstats`). */
  executed: Record<string, number>;
}

const OWN = new Set(['monitor', 'info', 'config', 'config|resetstat', 'echo']);

/**
 * Counts the commands `task` makes Redis run: resets `INFO commandstats` (`CONFIG RESETSTAT`) and watches
 * `MONITOR` (which marks commands a script issued with source `lua`). Use a private redis-server: both
 * views are server-wide.
 */
export async function countCommands(url: string, task: () => Promise<void>): Promise<CommandCount> {
  const admin = new Redis(url);
  admin.on('error', () => {});
  const monitor = await admin.monitor();
  monitor.on('error', () => {});
  const sent: Record<string, number> = {};
  const marker = `count-done-${Math.random()}`;
  let seenMarker!: () => void;
  const done = new Promise<void>((resolve) => (seenMarker = resolve));
  let ended = false;
  monitor.on('monitor', (_time: string, args: string[], source: string) => {
    // MONITOR keeps reporting until its connection is gone: what follows the marker is not this task's.
    if (ended) return;
    const name = String(args[0]).toLowerCase();
    if (name === 'echo' && args[1] === marker) return void ((ended = true), seenMarker());
    if (source === 'lua' || OWN.has(name)) return;
    sent[name] = (sent[name] ?? 0) + 1;
  });
  try {
    await admin.config('RESETSTAT');
    await task();
    await admin.echo(marker);
    await done;
    const executed: Record<string, number> = {};
    for (const [, name, calls] of (await admin.info('commandstats')).matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) {
      if (!OWN.has(name!)) executed[name!] = Number(calls);
    }
    return { sent, executed };
  } finally {
    monitor.disconnect();
    admin.disconnect();
  }
}

/** Per-call figures: every count divided by `calls`. */
export function perCall(
  count: CommandCount,
  calls: number,
): { roundTrips: number; sent: Record<string, number>; executed: Record<string, number>; executedTotal: number } {
  const div = (r: Record<string, number>) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v / calls]));
  const sent = div(count.sent);
  const executed = div(count.executed);
  return {
    roundTrips: Object.values(sent).reduce((a, b) => a + b, 0),
    sent,
    executed,
    executedTotal: Object.values(executed).reduce((a, b) => a + b, 0),
  };
}
