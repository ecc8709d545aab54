import { describe, expect, it } from 'vitest';
import { peerGroup } from '../../src/principal/peers.js';

describe('peerGroup: the budget key of a peer address', () => {
  it('keeps an IPv4 address, unwraps an IPv4-mapped one, and groups IPv6 addresses by their /64', () => {
    expect(['127.0.0.2', '::ffff:127.0.0.2', '::FFFF:10.1.2.3'].map(peerGroup)).toEqual([
      '127.0.0.2',
      '127.0.0.2',
      '10.1.2.3',
    ]);
    const sameNet = [
      '2001:db8:1:2::7',
      '2001:db8:1:2:ffff:ffff:ffff:ffff',
      '2001:DB8:0001:0002:aaaa::1',
      'fe80::1%eth0',
    ].map(peerGroup);
    expect(sameNet).toEqual(['2001:db8:1:2::/64', '2001:db8:1:2::/64', '2001:db8:1:2::/64', 'fe80:0:0:0::/64']);
    expect(peerGroup('2001:db8:1:3::7')).not.toBe(peerGroup('2001:db8:1:2::7'));
    expect(peerGroup('::1')).toBe('0:0:0:0::/64');
  });
});
