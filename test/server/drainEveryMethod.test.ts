import type { Client } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { createFusionApp, initFusion, MemoryTaskStore } from '../../src/index.js';
import { createClock } from '../../src/testing/index.js';
import { v2FetchClient } from '../_helpers/clients.js';
import { until } from '../_helpers/waitFor.js';

const f = initFusion();
const anything = { '~standard': { version: 1, vendor: 'test', validate: (value: unknown) => ({ value }) } } as any;
const request = (client: Client, method: string, params: Record<string, unknown>): Promise<any> =>
  client.request({ method, params } as any, anything);
const registry = () =>
  f.registry().registerAll(
    f
      .action('job')
      .task()
      .handle(() => 'job done'),
  );

/** A task store whose reads wait, while `hold()` is on, until `letGo()`: a tasks/get stays in its handler. */
class HeldStore extends MemoryTaskStore {
  #held: Promise<void> | undefined;
  #letGo: () => void = () => {};
  waiting = 0;

  hold(): void {
    this.#held = new Promise((resolve) => (this.#letGo = resolve));
  }

  letGo(): void {
    this.#held = undefined;
    this.#letGo();
  }

  override async get(id: string): ReturnType<MemoryTaskStore['get']> {
    const held = this.#held;
    if (held !== undefined) {
      this.waiting++;
      await held;
    }
    return super.get(id);
  }
}

describe('close() drains every method through the one wrapper', () => {
  it('a tasks/get in flight when close() starts is answered before close() resolves', async () => {
    const clock = createClock();
    const startedAt = clock.now();
    const store = new HeldStore({ now: clock.now });
    const app = createFusionApp(registry(), { clock, tasks: { store } });
    const order: string[] = [];
    // The app's answers as they leave it: the tasks/get's is written once its response exists.
    const client = await v2FetchClient({
      fetch: async (r) => {
        const isGet = r.method === 'POST' && (await r.clone().text()).includes('"tasks/get"');
        const response = await app.fetch(r);
        if (isGet) order.push(`tasks/get answered ${response.status}`);
        return response;
      },
    });
    const created = await request(client, 'tools/call', { name: 'job', task: { ttl: 60_000 } });
    const taskId = created.task.taskId as string;
    store.hold();
    const got = request(client, 'tasks/get', { taskId });
    await until(() => store.waiting > 0, 'the tasks/get to be in its handler');
    const closed = app.close().then(() => void order.push('close() resolved'));
    await until(() => clock.pending > 0, 'the drain deadline to be armed');
    expect(order, 'close() waits for the tasks/get').toEqual([]);
    store.letGo();
    await closed;
    expect(order).toEqual(['tasks/get answered 200', 'close() resolved']);
    expect((await got).taskId).toBe(taskId);
    expect(clock.now(), 'no time passed on the clock').toBe(startedAt);
    await client.close().catch(() => {});
  });

  it('with nothing in flight, close() returns without waiting on the clock', async () => {
    const clock = createClock();
    const startedAt = clock.now();
    const app = createFusionApp(registry(), { clock });
    const client = await v2FetchClient(app);
    await request(client, 'tools/list', {});
    await client.close();
    const before = clock.pending;
    await app.close();
    expect(clock.now()).toBe(startedAt);
    expect(clock.pending, 'no timer armed by the drain').toBeLessThanOrEqual(before);
  });
});
