import { defineMethod } from './MethodDefinition.js';

/** `resources/templates/list`, when the registry has a resource or template. */
export const resourcesTemplatesList = defineMethod({
  method: 'resources/templates/list',
  needs: (w) => w.runtime.content?.hasResources === true,
  handler: (w) => async (_request, ctx) => w.runtime.content!.listResourceTemplates(await w.contextOf(ctx)),
});
