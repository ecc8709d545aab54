import { randomUUID } from 'node:crypto';
import type { SessionBus, SessionNotification } from './SessionBus.js';

/**
 * Session-bus control message (never sent to a client): a legacy session's subscription to `params.uri` was
 * taken or ended on the instance `params.origin`; every other instance drops the one it holds, so a session
 * subscribed on A and then on B (or unsubscribed through B) is notified once, by one holder, or not at all.
 */
export const SUBSCRIPTION_MOVED = 'fusion/subscription-moved';

/** What this needs of the legacy subscriptions' bookkeeping (`ResourceSubscriptions`). */
interface Subscriptions {
  unsubscribe(session: string, uri: unknown): void;
}

const origins = new WeakMap<Subscriptions, string>();

/** The identity of one process's bookkeeping on the bus. */
function originOf(subscriptions: Subscriptions): string {
  let origin = origins.get(subscriptions);
  if (origin === undefined) origins.set(subscriptions, (origin = randomUUID()));
  return origin;
}

/** Tells the session's other instances that its subscription to `uri` was taken or ended here. */
export function announceSubscription(bus: SessionBus, subscriptions: Subscriptions, session: string, uri: unknown) {
  bus.publish(session, { method: SUBSCRIPTION_MOVED, params: { uri, origin: originOf(subscriptions) } });
}

/**
 * Hears one session-bus message: true when it was a {@link SUBSCRIPTION_MOVED} (then, from another
 * instance, this one's subscription of the session to that URI is dropped), false for anything else.
 */
export function heardSubscriptionMove(
  subscriptions: Subscriptions | undefined,
  session: string,
  notification: SessionNotification,
): boolean {
  if (notification.method !== SUBSCRIPTION_MOVED) return false;
  if (subscriptions !== undefined && notification.params?.origin !== originOf(subscriptions))
    subscriptions.unsubscribe(session, notification.params?.uri);
  return true;
}
