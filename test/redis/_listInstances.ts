// The shared setup of the tasks/list tests of both eras (tasksList.test.ts, tasksListModern.test.ts).
import type { Redis } from 'ioredis';
import { createFusionApp, initFusion, type FusionApp } from '../../src/index.js';
import { RedisSessionStore, RedisTaskStore } from '../../src/redis/index.js';

const f = initFusion();
const ISS = 'https://id.example';

/** A verified user as a verifier would pass it to `app.fetch`. */
export const user = (sub: string) => ({
  authInfo: { token: `t-${sub}`, clientId: 'app', scopes: [], extra: { sub, iss: ISS } },
});

/**
 * One instance in this process; tasks and sessions in the shared Redis under `prefix`, two tasks a page. Its
 * one tool, `jobs.run`, runs as a task that never ends (so every task it starts stays listed as working).
 */
export function instance(client: Redis, prefix: string): FusionApp {
  const registry = f.registry().registerAll(
    f
      .action('jobs.run')
      .withString('name')
      .task({ pollIntervalMs: 20 })
      .handle(() => new Promise<string>(() => {})),
  );
  return createFusionApp(registry, {
    drainMs: 0,
    sessionStore: new RedisSessionStore({ client, prefix: `${prefix}session:` }),
    tasks: { store: new RedisTaskStore({ client, prefix: `${prefix}tasks:` }), leaseMs: 120_000, pageSize: 2 },
  });
}
