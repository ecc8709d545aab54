import { defineMethod } from './MethodDefinition.js';

/** `prompts/list`, when the registry has a prompt. */
export const promptsList = defineMethod({
  method: 'prompts/list',
  needs: (w) => w.runtime.content?.hasPrompts === true,
  handler: (w) => async (_request, ctx) => w.runtime.content!.listPrompts((await w.contextOf(ctx)).extra),
});
