import { describe, expect, it } from 'vitest';
import { AttachError } from '../../src/errors/FusionError.js';
import { peerKey } from '../../src/principal/peerKey.js';
import { peerPolicy } from '../../src/principal/peerPolicy.js';

const direct = peerPolicy(undefined);
const proxied = peerPolicy({ trustedProxies: ['127.0.0.1', '10.0.0.0/8', 'fd00::/8'] });
const forwardedStyle = peerPolicy({ trustedProxies: ['127.0.0.1'], forwardedHeader: 'forwarded' });
const per48 = peerPolicy({ ipv6PrefixLength: 48 });
const perAddress = peerPolicy({ ipv6PrefixLength: 128 });

describe('peerKey: the network peer of a request', () => {
  it.each([
    ['IPv4 as is', '203.0.113.7', null, direct, '203.0.113.7'],
    ['IPv4-mapped IPv6 is IPv4', '::ffff:203.0.113.7', null, direct, '203.0.113.7'],
    ['IPv4-mapped, upper case and long form', '0:0:0:0:0:FFFF:cb00:7107', null, direct, '203.0.113.7'],
    ['IPv6 by its /64', '2001:db8:1:2::7', null, direct, '2001:db8:1:2::/64'],
    ['another address in the same /64', '2001:DB8:0001:0002:aaaa:bbbb:cccc:dddd', null, direct, '2001:db8:1:2::/64'],
    ['the next /64 is another peer', '2001:db8:1:3::7', null, direct, '2001:db8:1:3::/64'],
    ['a zone is dropped', 'fe80::1%eth0', null, direct, 'fe80::/64'],
    ['loopback', '::1', null, direct, '::/64'],
    ['a configured /48', '2001:db8:1:2::7', null, per48, '2001:db8:1::/48'],
    ['a configured /128', '2001:db8:1:2::7', null, perAddress, '2001:db8:1:2::7/128'],
    ['no socket address', undefined, null, direct, undefined],
    ['not an IP address (a pipe): its own key', '/tmp/mcp.sock', null, direct, '/tmp/mcp.sock'],
    ['a header from an untrusted socket is ignored', '203.0.113.7', '198.51.100.1', direct, '203.0.113.7'],
    ['also with proxies configured', '203.0.113.7', '198.51.100.1', proxied, '203.0.113.7'],
    ['a trusted proxy: the forwarded address', '127.0.0.1', '198.51.100.1', proxied, '198.51.100.1'],
    ['the rightmost untrusted hop', '127.0.0.1', '6.6.6.6, 198.51.100.1, 10.1.2.3', proxied, '198.51.100.1'],
    ['a forwarded IPv6 by its /64', '127.0.0.1', '2001:db8:5:6::99', proxied, '2001:db8:5:6::/64'],
    ['hops with ports', '127.0.0.1', '[2001:db8::1]:4711, 198.51.100.1:80', proxied, '198.51.100.1'],
    ['a forwarded IPv4-mapped address is IPv4', '127.0.0.1', '::ffff:198.51.100.1', proxied, '198.51.100.1'],
    ['every hop trusted: the farthest', '127.0.0.1', '10.0.0.5, 10.0.0.6', proxied, '10.0.0.5'],
    ['an unreadable hop stops at the last readable', '127.0.0.1', '198.51.100.1, junk, 10.0.0.6', proxied, '10.0.0.6'],
    ['an empty header: the proxy itself', '127.0.0.1', '', proxied, '127.0.0.1'],
    ['a trusted IPv6 proxy', 'fd00::1', '198.51.100.1', proxied, '198.51.100.1'],
    [
      'Forwarded (RFC 7239)',
      '127.0.0.1',
      'for=6.6.6.6, for="[2001:db8:cafe::17]:4711";proto=https;by=127.0.0.1',
      forwardedStyle,
      '2001:db8:cafe::/64',
    ],
    ['Forwarded without for=', '127.0.0.1', 'proto=https', forwardedStyle, '127.0.0.1'],
    ['Forwarded "unknown"', '127.0.0.1', 'for=unknown', forwardedStyle, '127.0.0.1'],
  ] as const)('%s', (_name, remote, header, policy, expected) => {
    expect(peerKey(remote, header, policy)).toBe(expected);
  });

  it('refuses a wrong option with what to write instead', () => {
    const wrong = (options: Parameters<typeof peerPolicy>[0]): string => {
      try {
        peerPolicy(options);
      } catch (error) {
        expect(error).toBeInstanceOf(AttachError);
        return (error as Error).message;
      }
      return 'accepted';
    };
    expect(wrong({ trustedProxies: ['10.0.0.0/33'] })).toMatchInlineSnapshot(
      `"peers.trustedProxies[0] is not an IP address or CIDR network (got "10.0.0.0/33"); write "203.0.113.7", "10.0.0.0/8" or "fd00::/8"."`,
    );
    expect(wrong({ trustedProxies: ['127.0.0.1', 'proxy.local'] })).toContain('peers.trustedProxies[1]');
    expect(wrong({ ipv6PrefixLength: 0 })).toMatchInlineSnapshot(
      `"peers.ipv6PrefixLength must be an integer from 1 to 128 (got 0); 64 keys a host by its /64."`,
    );
    expect(wrong({ forwardedHeader: 'x-real-ip' as never })).toContain('peers.forwardedHeader');
    expect(wrong({ trustedProxies: ['::ffff:10.0.0.0/104', '2001:db8::/32'] })).toBe('accepted');
  });
});
