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
  const req = (requestOrContext as { http?: { req?: unknown }; requestInfo?: unknown }).http?.req ?? (requestOrContext as { requestInfo?: unknown }).requestInfo;
  return typeof req === 'object' && req !== null ? peers.get(req) : undefined;
}
