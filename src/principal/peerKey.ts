import { formatIp, maskIp, parseIp, samePrefix, type IpBytes } from './ipAddress.js';

/** A network (`10.0.0.0/8`, or one address with all its bits) the operator trusts as a proxy. */
export interface TrustedNetwork {
  readonly bytes: IpBytes;
  readonly bits: number;
}

/** How {@link peerKey} reads a request: made from the `peers` option by `peerPolicy`. */
export interface PeerPolicy {
  /** Proxies whose forwarded header is believed; a connection from anywhere else is its own peer. */
  readonly trustedProxies: readonly TrustedNetwork[];
  /** Leading bits an IPv6 peer is keyed by (64: one host usually holds a whole /64). */
  readonly ipv6PrefixLength: number;
  /** The header trusted proxies append the client's address to. */
  readonly forwardedHeader: 'x-forwarded-for' | 'forwarded';
}

/** No trusted proxy, IPv6 by /64, `X-Forwarded-For`. */
export const DEFAULT_PEER_POLICY: PeerPolicy = Object.freeze({
  trustedProxies: Object.freeze([]),
  ipv6PrefixLength: 64,
  forwardedHeader: 'x-forwarded-for',
});

/**
 * The network peer of a request, as the key its anonymous principal and every per-peer budget use: an IPv4
 * address as is (also when IPv4-mapped, `::ffff:10.0.0.1`), an IPv6 address by its prefix
 * (`2001:db8:1:2::/64`), so that a host rotating addresses in its /64 stays one peer. When `remote` (the
 * socket's address) is a trusted proxy, the peer is the rightmost hop of `forwarded` (the policy's header)
 * that is not a trusted proxy — the address the first trusted proxy saw; a client can prepend hops, never
 * append them. An unreadable hop stops the walk at the last readable one. `undefined` without `remote`; a
 * `remote` that is not an IP address (a pipe) is its own key. Pure.
 *
 * @example peerKey('127.0.0.1', '2001:db8::7, 10.0.0.2', policy) // '2001:db8::/64' when 127.0.0.1 and 10/8 are trusted
 */
export function peerKey(
  remote: string | undefined,
  forwarded: string | null | undefined,
  policy: PeerPolicy = DEFAULT_PEER_POLICY,
): string | undefined {
  if (remote === undefined || remote === '') return undefined;
  if (!forwarded) return directKey(remote, policy);
  return keyOf(remote, forwarded, policy);
}

/** Keys of peers that came without a forwarded header, per policy: one parse per address, not per request. */
const direct = new WeakMap<PeerPolicy, Map<string, string>>();
/** Addresses remembered per policy before the memo starts afresh (a scan of many addresses stays bounded). */
const DIRECT_MEMO_SIZE = 1024;

function directKey(remote: string, policy: PeerPolicy): string {
  let memo = direct.get(policy);
  if (memo === undefined) direct.set(policy, (memo = new Map()));
  let key = memo.get(remote);
  if (key === undefined) {
    key = keyOf(remote, undefined, policy);
    if (memo.size >= DIRECT_MEMO_SIZE) memo.clear();
    memo.set(remote, key);
  }
  return key;
}

function keyOf(remote: string, forwarded: string | null | undefined, policy: PeerPolicy): string {
  const socket = parseIp(remote);
  if (socket === undefined) return remote;
  let peer = socket;
  if (forwarded && isTrusted(socket, policy)) {
    const hops = hopsOf(forwarded, policy.forwardedHeader);
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = hops[i];
      if (hop === undefined) break;
      peer = hop;
      if (!isTrusted(hop, policy)) break;
    }
  }
  if (peer.length === 4) return formatIp(peer);
  return `${formatIp(maskIp(peer, policy.ipv6PrefixLength))}/${policy.ipv6PrefixLength}`;
}

function isTrusted(address: IpBytes, policy: PeerPolicy): boolean {
  return policy.trustedProxies.some((net) => samePrefix(address, net.bytes, net.bits));
}

/** The hops a forwarded header lists, left (farthest) to right (nearest); `undefined` for an unreadable one. */
function hopsOf(value: string, header: PeerPolicy['forwardedHeader']): Array<IpBytes | undefined> {
  return value.split(',').map((element) => {
    if (header === 'x-forwarded-for') return hostOf(element.trim());
    const pair = element
      .split(';')
      .map((p) => p.trim())
      .find((p) => p.toLowerCase().startsWith('for='));
    return pair === undefined ? undefined : hostOf(pair.slice(4).replace(/^"(.*)"$/, '$1'));
  });
}

/** The address of one hop: `[v6]:port`, `[v6]`, `v4:port` or a bare address. */
function hostOf(hop: string): IpBytes | undefined {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(hop);
  if (bracketed !== null) return parseIp(bracketed[1]!);
  const v4WithPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(hop);
  return parseIp(v4WithPort === null ? hop : v4WithPort[1]!);
}
