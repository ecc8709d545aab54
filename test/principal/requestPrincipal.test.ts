import { describe, expect, it } from 'vitest';
import { peerOf, rememberPeer, requestPrincipal } from '../../src/principal/index.js';

describe('requestPrincipal', () => {
  const request = () => new Request('http://127.0.0.1/mcp');

  it('keys a verified token the same in both eras, whatever the session or peer', () => {
    const authInfo = { clientId: 'app', extra: { sub: 'alice', iss: 'https://id.example' } };
    const legacy = requestPrincipal({ sessionKey: 's1', extra: { authInfo, era: 'legacy', sessionId: 's1' } });
    const modern = requestPrincipal({ sessionKey: undefined, extra: { authInfo, era: 'modern' } });
    expect(legacy.key).toBe('u:["https://id.example","alice"]');
    expect(modern.key).toBe(legacy.key);
  });

  it('keys an anonymous HTTP caller by its peer in both eras, and a legacy one without a peer by its session', () => {
    const req = request();
    rememberPeer(req, '10.0.0.7');
    expect(peerOf({ http: { req } })).toBe('10.0.0.7');
    expect(
      requestPrincipal({ sessionKey: 's1', extra: { era: 'legacy', sessionId: 's1', raw: { http: { req } } } }).key,
    ).toBe('a:"peer:10.0.0.7"');
    expect(requestPrincipal({ sessionKey: 's1', extra: { era: 'legacy', sessionId: 's1', raw: {} } }).key).toBe(
      'a:"session:s1"',
    );
    expect(requestPrincipal({ sessionKey: 'conn-1', extra: { era: 'legacy' } }).key).toBe('a:"session:conn-1"');
    expect(requestPrincipal({ sessionKey: undefined, extra: { era: 'modern', raw: { http: { req } } } }).key).toBe(
      'a:"peer:10.0.0.7"',
    );
    expect(requestPrincipal({ sessionKey: undefined, extra: { era: 'modern', raw: {} } }).key).toBe('a:unknown');
    rememberPeer(req, undefined);
    expect(peerOf(req), 'cleared').toBeUndefined();
  });

  it('never lets a session id pose as a peer, nor a peer as a session', () => {
    const req = request();
    rememberPeer(req, 'x');
    const asPeer = requestPrincipal({ sessionKey: undefined, extra: { era: 'modern', raw: { http: { req } } } }).key;
    expect(requestPrincipal({ sessionKey: 'peer:x', extra: { era: 'legacy', sessionId: 'peer:x' } }).key).toBe(
      'a:"session:peer:x"',
    );
    expect(asPeer).toBe('a:"peer:x"');
  });
});
