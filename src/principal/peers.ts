/**
 * The network peer of an HTTP request, as the server that accepted the connection saw it (never a header a
 * client can set). `startServer` records the socket's remote address for each request it hands to the
 * app; the anonymous principal of a modern (2026-07-28) HTTP request is keyed by it.
 */
const peers = new WeakMap<object, string>();

/** Records the peer address of `request` (called by the HTTP entry before the request is served). */
export function rememberPeer(request: Request, peer: string | undefined): void {
  if (typeof peer === 'string' && peer.length > 0) peers.set(request, peer);
}

/** The peer address recorded for `request` (a `Request`, or an SDK handler context carrying `http.req`). */
export function peerOf(requestOrContext: unknown): string | undefined {
  if (typeof requestOrContext !== 'object' || requestOrContext === null) return undefined;
  const direct = peers.get(requestOrContext);
  if (direct !== undefined) return direct;
  const req =
    (requestOrContext as { http?: { req?: unknown }; requestInfo?: unknown }).http?.req ??
    (requestOrContext as { requestInfo?: unknown }).requestInfo;
  return typeof req === 'object' && req !== null ? peers.get(req) : undefined;
}

/**
 * The budget key of a peer address: an IPv4 address as is (also when IPv4-mapped, `::ffff:10.0.0.1`), an IPv6
 * address by its /64 prefix (one host usually holds a whole /64, so per-address budgets would not bind it).
 * Used for per-peer budgets (connections, anonymous listen streams and sessions), never as an identity.
 */
export function peerGroup(address: string): string {
  if (!address.includes(':')) return address;
  const mapped = /^(?:0{0,4}:){0,5}:?ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped !== null) return mapped[1]!;
  const bare = address.replace(/%.*$/, '').toLowerCase();
  const [head = '', tail] = bare.split('::', 2);
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups =
    tail === undefined
      ? left
      : [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}
