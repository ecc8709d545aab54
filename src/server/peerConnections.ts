import type { Server } from 'node:net';
import { peerGroup } from '../principal/peers.js';

/**
 * Gives each peer (IPv6: each /64) a share of the server's sockets: a connection past `max` open ones from
 * the same peer is closed at once, before it is read, so one host cannot fill `maxConnections` and have
 * everyone else's fresh connections refused. O(1) per connection.
 */
export function capConnectionsPerPeer(server: Server, max: number): void {
  const open = new Map<string, number>();
  server.on('connection', (socket) => {
    const peer = peerGroup(socket.remoteAddress ?? '');
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
