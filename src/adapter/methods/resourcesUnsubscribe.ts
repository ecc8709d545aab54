import { defineMethod } from './MethodDefinition.js';

/** `resources/unsubscribe` (the `resourceSubscriptions` option, legacy era). */
export const resourcesUnsubscribe = defineMethod({
  method: 'resources/unsubscribe',
  needs: (w) => w.subscriptions !== undefined,
  handler: (w) => (request: { params?: { uri?: unknown } }, ctx: unknown) => {
    w.subscriptions!.unsubscribe(w.scopeOf(ctx).sessionKey ?? w.connectionId, request?.params?.uri);
    return {};
  },
});
