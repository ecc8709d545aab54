import { budgetOwner } from '../../principal/budgetOwner.js';
import { JsonRpcCode, WireError } from '../../errors/WireError.js';
import { mayWatchUri, unknownInstanceText } from '../../workflow/mayWatchUri.js';
import { defineMethod } from './MethodDefinition.js';

/** `resources/subscribe` (the `resourceSubscriptions` option, legacy era). */
export const resourcesSubscribe = defineMethod({
  method: 'resources/subscribe',
  needs: (w) => w.subscriptions !== undefined,
  handler: (w) => async (request: { params?: { uri?: unknown } }, ctx: unknown) => {
    const rctx = w.rctxOf(ctx);
    const uri = request?.params?.uri;
    // A scope-hidden resource is refused as resources/read refuses it; so is another's workflow instance.
    w.runtime.content!.authorizeUri(uri, rctx.extra);
    if (!(await mayWatchUri(w.runtime.workflow, uri, rctx)))
      throw new WireError(JsonRpcCode.ResourceNotFound, unknownInstanceText(String(uri)), { uri });
    const key = rctx.sessionKey ?? w.connectionId;
    w.subscriptions!.subscribe(key, uri, w.sendToSession(key), budgetOwner(rctx));
    w.subscribed.add(key);
    w.announceSubscription(key, uri);
    return {};
  },
});
