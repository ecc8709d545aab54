import { describe, expect, it } from 'vitest';
import { ResourceSubscriptions } from '../../src/resources/ResourceSubscriptions.js';

const known = new Set(['test://a', 'test://b']);

function recorder() {
  const got: unknown[] = [];
  return { got, send: async (n: unknown) => void got.push(n) };
}

describe('ResourceSubscriptions', () => {
  it('notifies exactly the subscribers of a URI, idempotently', async () => {
    const subs = new ResourceSubscriptions((u) => known.has(u));
    const one = recorder();
    const two = recorder();
    subs.subscribe('s1', 'test://a', one.send);
    subs.subscribe('s1', 'test://a', one.send);
    subs.subscribe('s2', 'test://b', two.send);
    expect(await subs.publish('test://a')).toBe(1);
    expect(one.got).toEqual([{ method: 'notifications/resources/updated', params: { uri: 'test://a' } }]);
    expect(two.got).toEqual([]);
    expect(await subs.publish('test://a', (s) => s !== 's1')).toBe(0);
  });

  it('stops after unsubscribe and when the session is released', async () => {
    const subs = new ResourceSubscriptions((u) => known.has(u));
    const one = recorder();
    subs.subscribe('s1', 'test://a', one.send);
    subs.subscribe('s1', 'test://b', one.send);
    subs.unsubscribe('s1', 'test://a');
    subs.unsubscribe('s1', 'test://never');
    expect(await subs.publish('test://a')).toBe(0);
    expect(subs.size).toBe(1);
    subs.release('s1');
    expect(subs.size).toBe(0);
    expect(await subs.publish('test://b')).toBe(0);
  });

  it('refuses unknown and malformed URIs, and more than maxPerSession', () => {
    const subs = new ResourceSubscriptions((u) => known.has(u), { maxPerSession: 1 });
    const { send } = recorder();
    expect(() => subs.subscribe('s1', 'test://nope', send)).toThrow(expect.objectContaining({ code: -32002 }));
    expect(() => subs.subscribe('s1', 'test://a/../b', send)).toThrow(expect.objectContaining({ code: -32602 }));
    expect(() => subs.subscribe('s1', 42, send)).toThrow(expect.objectContaining({ code: -32602 }));
    subs.subscribe('s1', 'test://a', send);
    subs.subscribe('s1', 'test://a', send);
    expect(() => subs.subscribe('s1', 'test://b', send)).toThrow(/Too many resource subscriptions/);
    subs.subscribe('s2', 'test://b', send);
  });

  it('refuses past the total for all sessions with a retry hint, and accepts again once one is released', () => {
    const subs = new ResourceSubscriptions((u) => known.has(u), { maxTotal: 2 });
    const { send } = recorder();
    subs.subscribe('s1', 'test://a', send);
    subs.subscribe('s2', 'test://a', send);
    subs.subscribe('s2', 'test://a', send); // idempotent: holds nothing new
    expect(() => subs.subscribe('s3', 'test://b', send)).toThrow(
      expect.objectContaining({
        code: -32603,
        message: expect.stringMatching(
          /most resource subscriptions \(2\) for all clients: subscribe again in a minute/,
        ),
        data: { uri: 'test://b', retryAfterMs: 60_000 },
      }),
    );
    subs.release('s1');
    subs.subscribe('s3', 'test://b', send);
    expect(subs.size).toBe(2);
  });

  it('budgets the sessions of one principal together, leaving the rest of the total to others', () => {
    const subs = new ResourceSubscriptions((u) => u.startsWith('test://'), { maxPerPrincipal: 3, maxTotal: 10 });
    const { send } = recorder();
    for (const [session, uri] of [
      ['m1', 'test://1'],
      ['m1', 'test://2'],
      ['m2', 'test://1'],
    ] as const)
      subs.subscribe(session, uri, send, 'u:mallory');
    subs.subscribe('m2', 'test://1', send, 'u:mallory'); // idempotent: holds nothing new
    expect(() => subs.subscribe('m3', 'test://9', send, 'u:mallory')).toThrow(
      expect.objectContaining({
        code: -32602,
        message:
          'Too many resource subscriptions: your sessions already hold 3 together. Unsubscribe from resources you no longer watch, or close sessions you no longer use.',
        data: { uri: 'test://9', budget: 'principal', max: 3 },
      }),
    );
    subs.subscribe('a1', 'test://9', send, 'u:alice');
    subs.release('m1');
    subs.subscribe('m3', 'test://9', send, 'u:mallory');
    expect(subs.size).toBe(3);
  });

  it('keeps publishing to the others when one session is gone', async () => {
    const subs = new ResourceSubscriptions((u) => known.has(u));
    const ok = recorder();
    subs.subscribe('gone', 'test://a', async () => {
      throw new Error('Not connected');
    });
    subs.subscribe('live', 'test://a', ok.send);
    expect(await subs.publish('test://a')).toBe(1);
    expect(ok.got).toHaveLength(1);
  });
});
