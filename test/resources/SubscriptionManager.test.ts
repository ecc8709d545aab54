import { describe, expect, it } from 'vitest';
import { canonicalUri, SubscriptionManager } from '../../src/resources/SubscriptionManager.js';
import type { WireError } from '../../src/errors/WireError.js';

const known = new Set(['test://a', 'test://b', 'file:///data/report.txt']);
const make = (now = () => 0) => new SubscriptionManager({ exists: (u) => known.has(u), idleMs: 100, now });

describe('SubscriptionManager', () => {
  it('keeps one idempotent subscription per session and URI, and notifies only subscribers', () => {
    const subs = make();
    subs.subscribe('s1', 'test://a');
    subs.subscribe('s1', 'test://a');
    subs.subscribe('s2', 'test://b');
    expect(subs.size).toBe(2);
    expect(subs.subscribers('test://a')).toEqual(['s1']);
    expect(subs.subscribers('test://b')).toEqual(['s2']);
    subs.unsubscribe('s1', 'test://a');
    subs.unsubscribe('s1', 'test://a');
    expect(subs.subscribers('test://a')).toEqual([]);
  });

  it('refuses traversal, malformed and unknown URIs with JSON-RPC errors', () => {
    const subs = make();
    const codeOf = (uri: unknown) => {
      try {
        subs.subscribe('s', uri);
        return 0;
      } catch (e) {
        return (e as WireError).code;
      }
    };
    expect(codeOf('file:///data/../etc/passwd')).toBe(-32602);
    expect(codeOf('file:///data/%2e%2e/etc/passwd')).toBe(-32602);
    expect(codeOf('no-scheme')).toBe(-32602);
    expect(codeOf(42)).toBe(-32602);
    expect(codeOf('%E0%A4%A')).toBe(-32602);
    expect(codeOf('test://missing')).toBe(-32002);
    expect(() => subs.subscribe('s', 'test://missing')).toThrow(
      'Resource not found: test://missing. Call resources/list or resources/templates/list for the URIs you can subscribe to.',
    );
    expect(canonicalUri('file:///data/report.txt')).toBe('file:///data/report.txt');
  });

  it('expires idle subscriptions and releases everything of a closed session', () => {
    let t = 0;
    const subs = make(() => t);
    subs.subscribe('s1', 'test://a');
    subs.subscribe('s1', 'test://b');
    subs.subscribe('s2', 'test://a');
    t = 60;
    subs.subscribers('test://b');
    t = 120;
    subs.sweep();
    expect(subs.size).toBe(1);
    expect(subs.subscribers('test://b')).toEqual(['s1']);
    subs.releaseSession('s1');
    expect(subs.size).toBe(0);
  });
});
