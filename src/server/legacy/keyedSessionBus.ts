import { randomUUID } from 'node:crypto';
import type { SessionBus } from '../../session/SessionBus.js';
import { EVENT_KEY } from './SessionEvents.js';

/**
 * The session bus with an identity on every notification it carries (in `params._meta`, removed before the
 * client sees it): every instance that holds the session live stores the event, and the event store keeps
 * it once under that key, so a client resuming anywhere receives it exactly once.
 */
export function keyedSessionBus(bus: SessionBus): SessionBus {
  return {
    publish(sessionId, notification) {
      if (!notification.method.startsWith('notifications/')) return bus.publish(sessionId, notification);
      const meta = {
        ...(notification.params?._meta as Record<string, unknown> | undefined),
        [EVENT_KEY]: randomUUID(),
      };
      bus.publish(sessionId, { method: notification.method, params: { ...notification.params, _meta: meta } });
    },
    subscribe: (listener) => bus.subscribe(listener),
    ...(bus.watch !== undefined ? { watch: (sessionId: string) => bus.watch!(sessionId) } : {}),
  };
}
