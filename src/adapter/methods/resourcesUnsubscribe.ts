import { defineMethod } from './MethodDefinition.js';

/** `resources/unsubscribe` (the `resourceSubscriptions` option, legacy era). */
export const resourcesUnsubscribe = defineMethod({
  method: 'resources/unsubscribe',
  needs: (w) => w.subscriptions !== undefined,
  handler: (w) => (request: { params?: { uri?: unknown } }, ctx: unknown) => {
    const key = w.rctxOf(ctx).sessionKey ?? w.connectionId;
    w.subscriptions!.unsubscribe(key, request?.params?.uri);
    w.announceSubscription(key, request?.params?.uri);
    return {};
  },
});
