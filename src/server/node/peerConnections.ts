import type { Server } from 'node:net';
import { DEFAULT_PEER_POLICY, peerKey, type PeerPolicy } from '../../principal/peerKey.js';

/**
 * Gives each peer (IPv6: each prefix of the policy's length, /64 by default) a share of the server's sockets:
 * a connection past `max` open ones from the same peer is closed at once, before it is read, so one host
 * cannot fill `maxConnections` and have everyone else's fresh connections refused. O(1) per connection.
 * Sockets are counted by their own address: no header has been read yet.
 */
export function capConnectionsPerPeer(server: Server, max: number, policy: PeerPolicy = DEFAULT_PEER_POLICY): void {
  const open = new Map<string, number>();
  server.on('connection', (socket) => {
    const peer = peerKey(socket.remoteAddress, undefined, policy) ?? '';
    const count = open.get(peer) ?? 0;
    if (count >= max) {
      socket.destroy();
      return;
    }
    open.set(peer, count + 1);
    socket.once('close', () => {
      const left = (open.get(peer) ?? 1) - 1;
      if (left <= 0) open.delete(peer);
      else open.set(peer, left);
    });
  });
}
