import type { MethodHandler } from '../contentHandlers.js';
import { grantedBy, listWithSkillFiles } from '../skillHandlers.js';
import { defineMethod } from './MethodDefinition.js';

/** `resources/list`: the registry's resources, then the caller's skill files (when skills are served). */
export const resourcesList = defineMethod({
  method: 'resources/list',
  needs: (w) => w.runtime.content?.hasResources === true || w.skills !== undefined,
  handler: (w) => {
    const content = w.runtime.content;
    const own: MethodHandler | undefined =
      content?.hasResources === true
        ? async (_request, ctx) => content.listResources(await w.contextOf(ctx))
        : undefined;
    return w.skills === undefined ? own! : listWithSkillFiles(w.skills, grantedBy(w.rctxOf), own);
  },
});
