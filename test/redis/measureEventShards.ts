// Measures what listen-stream events cost the masters of a Redis Cluster, with the events on one sharded
// channel and on 16 (RedisEventBus eventShards): Redis CPU time per event on each master (/proc/<pid>/stat)
// (less what each spends idle) while one publisher sends events for 1,000 URIs to SUBSCRIBERS instances.
// Bounded: 2 × (MEASURE_SECONDS idle + MEASURE_SECONDS of load), 5 s each by default.
//   npx tsx --conditions=mcp-fusion-source test/redis/measureEventShards.ts
import { readFileSync } from 'node:fs';
import { Cluster } from 'ioredis';
import { failFastClusterOptions, RedisEventBus } from '../../src/redis/index.js';
import { startRedisCluster } from './redisCluster.js';

const SUBSCRIBERS = Number(process.env.SUBSCRIBERS ?? 10);
const SECONDS = Number(process.env.MEASURE_SECONDS ?? 5);
/** Events per 1 ms tick: a steady rate (about 2,000/s by default), the same in both layouts, so Redis batches alike. */
const PER_TICK = Number(process.env.PER_TICK ?? 2);

/** User + system CPU time of a process, in ms. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1_000) / 100;
}

const cluster = await startRedisCluster(3);
const clients: Cluster[] = [];
const client = async (): Promise<Cluster> => {
  const c = new Cluster(cluster.nodes, failFastClusterOptions());
  c.on('error', () => {});
  clients.push(c);
  if (c.status !== 'ready') await new Promise((resolve) => c.once('ready', resolve));
  return c;
};
try {
  for (const shards of [1, 16]) {
    const prefix = `measure:${shards}:`;
    const publisher = new RedisEventBus({
      publisher: await client(),
      subscriber: await client(),
      prefix,
      eventShards: shards,
    });
    const subscribers = await Promise.all(
      Array.from(
        { length: SUBSCRIBERS },
        async () =>
          new RedisEventBus({ publisher: await client(), subscriber: await client(), prefix, eventShards: shards }),
      ),
    );
    await Promise.all([publisher, ...subscribers].map((bus) => bus.ready()));
    let received = 0;
    for (const bus of subscribers) bus.subscribe(() => void received++);
    const masters = cluster.nodes.map((n) => n.port);
    // What the masters spend idle (cluster bus, cron) over the same time, subtracted below.
    const idleFrom = masters.map((port) => cpuMs(cluster.pidOf(port)));
    await new Promise((resolve) => setTimeout(resolve, SECONDS * 1_000));
    const idle = masters.map((port, i) => cpuMs(cluster.pidOf(port)) - idleFrom[i]!);
    const before = masters.map((port) => cpuMs(cluster.pidOf(port)));
    const started = Date.now();
    let sent = 0;
    while (Date.now() - started < SECONDS * 1_000) {
      for (let i = 0; i < PER_TICK; i++)
        publisher.publish({ kind: 'resource_updated', uri: `fusion://fsm/cart/h${sent++ % 1_000}` });
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    const deadline = Date.now() + 10_000;
    while (received < sent * SUBSCRIBERS && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    const cpu = masters.map((port, i) =>
      Math.max(0, cpuMs(cluster.pidOf(port)) - before[i]! - (idle[i]! * (Date.now() - started)) / (SECONDS * 1_000)),
    );
    const perEvent = cpu.map((ms) => (ms * 1_000) / sent);
    const busiest = Math.max(...perEvent);
    console.log(
      JSON.stringify({
        shards,
        subscribers: SUBSCRIBERS,
        events: sent,
        eventsPerSecond: Math.round(sent / SECONDS),
        delivered: `${received}/${sent * SUBSCRIBERS}`,
        redisCpuUsPerEventPerMaster: perEvent.map((us) => Number(us.toFixed(1))),
        busiestMasterUsPerEvent: Number(busiest.toFixed(1)),
        projectedEventsPerSecondAt70: Math.round(0.7e6 / busiest),
      }),
    );
    await Promise.all([publisher, ...subscribers].map((bus) => bus.close()));
  }
} finally {
  for (const c of clients) c.disconnect();
  await cluster.stop();
}
