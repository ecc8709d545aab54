import { describe, expect, it } from 'vitest';
import { isValidHostHeader } from '../../src/server/http/hostHeader.js';

describe('isValidHostHeader', () => {
  it('accepts host and host:port, IPv4 and bracketed IPv6', () => {
    for (const h of [
      'localhost',
      'localhost:3000',
      '127.0.0.1:1',
      '[::1]',
      '[::1]:8080',
      'api.example.com',
      undefined,
      null,
    ])
      expect(isValidHostHeader(h)).toBe(true);
  });
  it('refuses user info, bad ports, paths and spaces', () => {
    for (const h of ['localhost:abc', 'evil@localhost', 'localhost:99999', 'a b', 'host/path', '[::1', ':80', ''])
      expect(isValidHostHeader(h)).toBe(false);
  });
});
