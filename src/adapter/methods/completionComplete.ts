import { defineMethod } from './MethodDefinition.js';

/** `completion/complete`, when a prompt or template declares a completer. */
export const completionComplete = defineMethod({
  method: 'completion/complete',
  needs: (w) => w.runtime.content?.hasCompletions === true,
  handler: (w) => async (request, ctx) => {
    const params = request?.params ?? {};
    return w.runtime.content!.complete(params.ref, params.argument, params.context, await w.contextOf(ctx));
  },
});
