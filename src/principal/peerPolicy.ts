import { AttachError } from '../errors/FusionError.js';
import { parseIp } from './ipAddress.js';
import { DEFAULT_PEER_POLICY, type PeerPolicy, type TrustedNetwork } from './peerKey.js';
import type { PeerOptions } from './types.js';

/** Checks the `peers` option once, at build time, into the policy {@link peerKey} reads; a wrong entry throws. */
export function peerPolicy(options: PeerOptions | undefined): PeerPolicy {
  if (options === undefined) return DEFAULT_PEER_POLICY;
  const prefix = options.ipv6PrefixLength ?? DEFAULT_PEER_POLICY.ipv6PrefixLength;
  if (!Number.isInteger(prefix) || prefix < 1 || prefix > 128)
    throw new AttachError(
      'PEER_OPTIONS',
      `peers.ipv6PrefixLength must be an integer from 1 to 128 (got ${String(prefix)}); 64 keys a host by its /64.`,
      { option: 'ipv6PrefixLength', value: prefix },
    );
  const header = options.forwardedHeader ?? DEFAULT_PEER_POLICY.forwardedHeader;
  if (header !== 'x-forwarded-for' && header !== 'forwarded')
    throw new AttachError(
      'PEER_OPTIONS',
      `peers.forwardedHeader must be "x-forwarded-for" or "forwarded" (got ${JSON.stringify(header)}).`,
      { option: 'forwardedHeader', value: header },
    );
  return Object.freeze({
    trustedProxies: Object.freeze((options.trustedProxies ?? []).map(network)),
    ipv6PrefixLength: prefix,
    forwardedHeader: header,
  });
}

function network(entry: string, index: number): TrustedNetwork {
  const [address = '', bitsText, extra] = String(entry).split('/');
  const bytes = parseIp(address);
  const max = bytes === undefined ? 0 : bytes.length * 8;
  const mapped = bytes?.length === 4 && address.includes(':');
  const bits = bitsText === undefined ? max : /^\d{1,3}$/.test(bitsText) ? Number(bitsText) - (mapped ? 96 : 0) : -1;
  if (bytes === undefined || extra !== undefined || bits < 0 || bits > max)
    throw new AttachError(
      'PEER_OPTIONS',
      `peers.trustedProxies[${index}] is not an IP address or CIDR network (got ${JSON.stringify(entry)}); write "203.0.113.7", "10.0.0.0/8" or "fd00::/8".`,
      { option: 'trustedProxies', index, value: entry },
    );
  return Object.freeze({ bytes, bits });
}
