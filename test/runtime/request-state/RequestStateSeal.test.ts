import { afterEach, describe, expect, it, vi } from 'vitest';
import { RequestStateSeal } from '../../../src/runtime/request-state/RequestStateSeal.js';
import { MemoryNonceStore } from '../../../src/runtime/request-state/MemoryNonceStore.js';

import { principalOf } from '../../../src/principal/index.js';

const as = (clientId: string | undefined) =>
  principalOf(clientId === undefined ? undefined : { clientId }, 'session-1').key;
const code = (promise: Promise<unknown>) =>
  promise.then(
    () => 'opened',
    (e: { code?: number; data?: unknown }) => ({ code: e.code, data: e.data }),
  );

describe('RequestStateSeal', () => {
  afterEach(() => vi.useRealTimers());

  it('round-trips a payload for the same target and caller', async () => {
    const seal = new RequestStateSeal();
    const state = await seal.seal({ step: 2, name: 'Alice' }, 'tools/call:wizard', as('alice'));
    expect(state).toMatch(/^fs1\.[\w-]+\.[\w-]+$/);
    expect(await seal.open(state, 'tools/call:wizard', as('alice'))).toEqual({ step: 2, name: 'Alice' });
  });

  it('refuses an altered, foreign, replayed or expired state with one -32602 answer', async () => {
    vi.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z') });
    const seal = new RequestStateSeal({ ttlSeconds: 60 });
    const state = await seal.seal({ step: 1 }, 'tools/call:wizard', as('alice'));
    const refused = { code: -32602, data: { reason: 'invalid_request_state' } };
    expect(await code(seal.open(`${state}-TAMPERED`, 'tools/call:wizard', as('alice')))).toEqual(refused);
    const [prefix, body, mac] = state.split('.');
    const forged = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(body!, 'base64url').toString()), p: { step: 9 } }),
    ).toString('base64url');
    expect(await code(seal.open(`${prefix}.${forged}.${mac}`, 'tools/call:wizard', as('alice')))).toEqual(refused);
    expect(await code(seal.open(state, 'tools/call:other', as('alice')))).toEqual(refused);
    expect(await code(seal.open(state, 'tools/call:wizard', as('bob')))).toEqual(refused);
    expect(await code(seal.open(state, 'tools/call:wizard', as(undefined)))).toEqual(refused);
    expect(await code(new RequestStateSeal().open(state, 'tools/call:wizard', as('alice')))).toEqual(refused);
    expect(await code(seal.open('not a state', 'tools/call:wizard', as('alice')))).toEqual(refused);
    vi.setSystemTime(new Date('2026-01-01T00:02:00Z'));
    expect(await code(seal.open(state, 'tools/call:wizard', as('alice')))).toEqual(refused);
  });

  it('accepts a state once: a second presentation, even by its own caller, is refused', async () => {
    const seal = new RequestStateSeal();
    const state = await seal.seal({ step: 3 }, 'tools/call:wizard', as('alice'));
    expect(await seal.open(state, 'tools/call:wizard', as('alice'))).toEqual({ step: 3 });
    expect(await code(seal.open(state, 'tools/call:wizard', as('alice')))).toEqual({
      code: -32602,
      data: { reason: 'invalid_request_state' },
    });
    expect(seal.usedCount).toBe(1);
  });

  it('binds to the principal key: two users of one OAuth client are two callers', async () => {
    const seal = new RequestStateSeal();
    const alice = principalOf({ clientId: 'app', extra: { sub: 'alice', iss: 'https://id.example' } }).key;
    const bob = principalOf({ clientId: 'app', extra: { sub: 'bob', iss: 'https://id.example' } }).key;
    const state = await seal.seal({ order: 1 }, 'tools/call:pay', alice);
    expect(await code(seal.open(state, 'tools/call:pay', bob))).toEqual({
      code: -32602,
      data: { reason: 'invalid_request_state' },
    });
    expect(await seal.open(state, 'tools/call:pay', alice)).toEqual({ order: 1 });
  });

  it('forgets used states once they expire, and refuses new ones past maxUsed until then', async () => {
    vi.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z') });
    const seal = new RequestStateSeal({ ttlSeconds: 60, maxUsed: 2 });
    const states = await Promise.all([1, 2, 3].map((n) => seal.seal(n, 'tools/call:w', as('alice'))));
    await seal.open(states[0]!, 'tools/call:w', as('alice'));
    await seal.open(states[1]!, 'tools/call:w', as('alice'));
    expect(await code(seal.open(states[2]!, 'tools/call:w', as('alice')))).toEqual({
      code: -32602,
      data: { reason: 'request_state_budget', scope: 'global', max: 2 },
    });
    vi.setSystemTime(new Date('2026-01-01T00:01:30Z'));
    const fresh = await seal.seal(4, 'tools/call:w', as('alice'));
    expect(await seal.open(fresh, 'tools/call:w', as('alice'))).toBe(4);
    expect(seal.usedCount).toBe(1);
  });

  it('budgets used states per principal: one caller at its share leaves room for the others, until its states expire', async () => {
    vi.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z') });
    const seal = new RequestStateSeal({ ttlSeconds: 60, maxUsedPerPrincipal: 2 });
    const mallory = await Promise.all([1, 2, 3].map((n) => seal.seal(n, 'tools/call:w', as('mallory'))));
    await seal.open(mallory[0]!, 'tools/call:w', as('mallory'));
    await seal.open(mallory[1]!, 'tools/call:w', as('mallory'));
    expect(await code(seal.open(mallory[2]!, 'tools/call:w', as('mallory')))).toEqual({
      code: -32602,
      data: { reason: 'request_state_budget', scope: 'principal', max: 2 },
    });
    expect(await seal.open(await seal.seal('a', 'tools/call:w', as('alice')), 'tools/call:w', as('alice'))).toBe('a');
    vi.setSystemTime(new Date('2026-01-01T00:01:30Z'));
    expect(await seal.open(await seal.seal(4, 'tools/call:w', as('mallory')), 'tools/call:w', as('mallory'))).toBe(4);
    expect(seal.usedCount).toBe(1);
  });

  it('shares states between instances that share a key, and never shows the caller in clear', async () => {
    const key = 'k'.repeat(32);
    const state = await new RequestStateSeal({ key }).seal('x', 'prompts/get:p', as('secret-client-id'));
    expect(await new RequestStateSeal({ key }).open(state, 'prompts/get:p', as('secret-client-id'))).toBe('x');
    expect(Buffer.from(state.split('.')[1]!, 'base64url').toString()).not.toContain('secret-client-id');
  });

  it('refuses a short key or a bad lifetime at construction', () => {
    expect(() => new RequestStateSeal({ key: 'short' })).toThrow(/at least 32 bytes/);
    expect(() => new RequestStateSeal({ ttlSeconds: 0 })).toThrow(/positive number/);
    expect(() => new RequestStateSeal({ maxUsedPerPrincipal: 0 })).toThrow(
      'requestState.maxUsedPerPrincipal must be a positive integer (got 0).',
    );
    expect(() => new RequestStateSeal({ maxUsed: 10, nonces: new MemoryNonceStore() })).toThrow(
      'requestState.maxUsed and maxUsedPerPrincipal budget the default memory store; with requestState.nonces set, drop them (the store you give keeps its own limits).',
    );
  });
});
