import { describe, expect, it } from 'vitest';
import { initFusion } from '../../src/index.js';
import { WorkflowSessions } from '../../src/advanced/index.js';
import { RedisFsmStore } from '../../src/redis/index.js';
import { createTestClient } from '../../src/testing/index.js';
import { statechart } from '../fsm/fixtures.js';
import { ready, redisClient, uniquePrefix } from './clients.js';

describe('nested and parallel state values on the Redis FSM store', () => {
  it('stores the full value of a served transition; another process restores it and gates with it', async () => {
    const prefix = uniquePrefix('chart');
    const f = initFusion();
    const gate = f.fsm(statechart);
    const registry = f.registry().registerAll(
      f
        .action('order.review')
        .bindState('browsing', 'REVIEW')
        .handle(() => 'reviewing'),
      f
        .action('legal.approve')
        .bindState('review.legal.open', 'APPROVE_LEGAL')
        .handle(() => 'legal ok'),
      f
        .action('tech.approve')
        .bindState('review.tech.open', 'APPROVE_TECH')
        .handle(() => 'tech ok'),
    );
    await using t = await createTestClient(registry, {
      fsm: gate,
      fsmStore: new RedisFsmStore({ client: await ready(redisClient()), prefix }),
    });
    await t.call('order.review');
    await t.call('tech.approve');
    // "Another process": its own connection, store and gate over the same Redis keys.
    const other = await ready(redisClient());
    const [stateKey] = await other.keys(`${prefix}state:*`);
    // Keys are `<prefix>state:{<key>}` (one cluster hash tag per workflow).
    const key = stateKey!.slice(`${prefix}state:{`.length, -1);
    const store = new RedisFsmStore({ client: other, prefix });
    expect((await store.load(key))?.state).toEqual({ review: { legal: 'open', tech: 'ok' } });
    const sessions = new WorkflowSessions(
      initFusion()
        .fsm(statechart)
        .bindTool('legal.approve', 'review.legal.open', 'APPROVE_LEGAL')
        .bindTool('tech.approve', 'review.tech.open', 'APPROVE_TECH'),
      { store },
    );
    expect(await sessions.visible(key, ['legal.approve', 'tech.approve'])).toEqual(['legal.approve']);
    const ran = await sessions.run(key, 'legal.approve', async () => ({ isError: false }));
    expect(ran).toMatchObject({
      outcome: 'ran',
      transition: { changed: true, currentState: { review: { legal: 'ok', tech: 'ok' } } },
    });
    expect(await t.state()).toEqual({ review: { legal: 'ok', tech: 'ok' } });
  });
});
