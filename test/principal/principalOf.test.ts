import { describe, expect, it } from 'vitest';
import { principalOf } from '../../src/principal/index.js';

describe('principalOf', () => {
  it('keys a token with a subject by issuer and subject', () => {
    const p = principalOf({
      clientId: 'app',
      scopes: ['notes:read', 3],
      extra: { sub: 'alice', iss: 'https://id.example' },
    });
    expect(p).toEqual({
      kind: 'user',
      key: 'u:["https://id.example","alice"]',
      subject: 'alice',
      issuer: 'https://id.example',
      clientId: 'app',
      scopes: ['notes:read'],
    });
  });

  it('keeps two users of one client apart, and one subject of two issuers apart', () => {
    const a = principalOf({ clientId: 'app', extra: { sub: 'alice' } }).key;
    const b = principalOf({ clientId: 'app', extra: { sub: 'bob' } }).key;
    const c = principalOf({ clientId: 'app', extra: { sub: 'alice', iss: 'https://other.example' } }).key;
    expect(new Set([a, b, c]).size).toBe(3);
  });

  it('never mistakes a client id for a subject of the same name', () => {
    expect(principalOf({ clientId: 'alice' }).key).not.toBe(
      principalOf({ clientId: 'x', extra: { sub: 'alice' } }).key,
    );
    expect(principalOf({ clientId: 'alice' }).kind).toBe('client');
  });

  it('keys anonymous callers by their fallback, so unrelated clients are not merged', () => {
    expect(principalOf(undefined, 'session-1').key).not.toBe(principalOf(undefined, 'session-2').key);
    expect(principalOf({ clientId: '' }, 'peer:127.0.0.1:5000')).toEqual({
      kind: 'anonymous',
      key: 'a:"peer:127.0.0.1:5000"',
      scopes: [],
    });
    expect(principalOf(undefined).key).toBe('a:unknown');
  });

  it('cannot be made to collide by crafted values', () => {
    expect(principalOf({ extra: { sub: 'b', iss: 'a' } }).key).not.toBe(
      principalOf({ extra: { sub: '","b', iss: 'a' } }).key,
    );
    expect(principalOf(undefined, 'u:["","alice"]').key).not.toBe(principalOf({ extra: { sub: 'alice' } }).key);
  });
});
