import { defineMethod } from './MethodDefinition.js';

/** `prompts/get`, its requestState opened for `prompts/get:<name>` first. */
export const promptsGet = defineMethod({
  method: 'prompts/get',
  needs: (w) => w.runtime.content?.hasPrompts === true,
  handler: (w) => async (request, ctx) => {
    const { name, arguments: args } = request?.params ?? {};
    return w.runtime.content!.getPrompt(name, args, await w.contextOf(ctx, `prompts/get:${String(name)}`));
  },
});
