import { Client } from '@modelcontextprotocol/client';
import { systemClock } from '../../src/_internal/clock.js';
import { InMemoryTransport, Server } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { initFusion, type StateSyncConfig } from '../../src/index.js';

const f = initFusion();

/** What one call or list does, counted on real parts: policy fields read, clock reads, observer calls. */
interface Counts {
  policyReads: number;
  clockReads: number;
  invalidations: number;
}

/** A policy whose fields count their reads (a plain object with accessors: State Sync reads it like any other). */
function countingPolicy(
  counts: Counts,
  match: string,
  fields: { cacheControl?: 'no-store' | 'immutable'; invalidates?: string[] },
) {
  const policy = {} as { match: string; cacheControl?: 'no-store' | 'immutable'; invalidates?: string[] };
  for (const [key, value] of Object.entries({ match, ...fields })) {
    Object.defineProperty(policy, key, {
      enumerable: true,
      get: () => {
        counts.policyReads++;
        return value;
      },
    });
  }
  return policy;
}

/**
 * N tools `domain<i % 10>.tool<i>`: every third declares `.invalidates('domain<k>.*')`, the rest `.stale()`, with
 * a policy per domain on top (so both inline declarations and registry policies are in play), served through
 * the SDK Client over the in-memory pair.
 */
async function served(n: number): Promise<{ client: Client; counts: Counts }> {
  const counts: Counts = { policyReads: 0, clockReads: 0, invalidations: 0 };
  const registry = f.registry();
  for (let i = 0; i < n; i++) {
    const tool = f.query(`domain${i % 10}.tool${i}`).withString('id', 'Identifier');
    registry.register(
      (i % 3 === 0 ? tool.invalidates(`domain${(i + 1) % 10}.*`) : tool.stale()).handle((input) => input.id),
    );
  }
  const policies: StateSyncConfig['policies'] = [];
  for (let d = 0; d < 10; d++)
    policies.push(
      countingPolicy(counts, `domain${d}.*`, {
        cacheControl: d % 2 === 0 ? 'no-store' : 'immutable',
        invalidates: [`domain${(d + 2) % 10}.*`],
      }),
    );
  const server = new Server({ name: 's', version: '1' }, { capabilities: {} });
  registry.attachToServer(server, {
    stateSync: { policies, onInvalidation: () => void counts.invalidations++ },
    clock: {
      ...systemClock,
      now: () => {
        counts.clockReads++;
        return 1_767_225_600_000;
      },
    },
  });
  const [c, s] = InMemoryTransport.createLinkedPair();
  await server.connect(s);
  const client = new Client({ name: 't', version: '1' });
  await client.connect(c);
  return { client, counts };
}

/** The counts of `calls` invalidating calls and `lists` tools/list after a first call and list (compilation) and a reset. */
async function workOf(n: number, calls: number, lists: number): Promise<Counts> {
  const { client, counts } = await served(n);
  await client.listTools();
  await client.callTool({ name: 'domain0.tool0', arguments: { id: 'x' } });
  Object.assign(counts, { policyReads: 0, clockReads: 0, invalidations: 0 });
  for (let i = 0; i < calls; i++) {
    const result = await client.callTool({ name: 'domain0.tool0', arguments: { id: `call-${i}` } });
    expect(result.content).toEqual([
      { type: 'text', text: '[System: Cache invalidated for domain1.* — caused by domain0.tool0]' },
      { type: 'text', text: `call-${i}` },
    ]);
    expect(result._meta?.['fusion/invalidation']).toEqual({
      patterns: ['domain1.*'],
      causedBy: 'domain0.tool0',
      at: '2026-01-01T00:00:00.000Z',
    });
    expect(result._meta?.['fusion/cacheControl']).toBe('no-store');
  }
  for (let i = 0; i < lists; i++) expect((await client.listTools()).tools).toHaveLength(n);
  await client.close();
  return { ...counts };
}

describe('State Sync at registry scale', () => {
  it('an invalidating call and tools/list do the same work with 30 tools as with 1,000: no policy read, two clock reads and one announcement per call', async () => {
    const small = await workOf(30, 20, 3);
    const large = await workOf(1000, 20, 3);
    // A call reads the runtime's clock twice: its tool deadline's due time, and its invalidation's `at`;
    // tools/list reads it not at all.
    expect(small).toEqual({ policyReads: 0, clockReads: 2 * 20, invalidations: 20 });
    expect(large).toEqual(small);
  });

  it('resolves the policies when the registry is attached, not on calls (the counting policies are read)', async () => {
    const { client, counts } = await served(30);
    expect(counts.policyReads).toBeGreaterThan(0);
    await client.close();
  });
});
