import type { MethodHandler } from '../contentHandlers.js';
import { grantedBy, readWithSkillFiles } from '../skillHandlers.js';
import { defineMethod } from './MethodDefinition.js';

/** `resources/read`: a skill file, or the registry's resource (its requestState opened for `resources/read:<uri>`). */
export const resourcesRead = defineMethod({
  method: 'resources/read',
  needs: (w) => w.runtime.content?.hasResources === true || w.skills !== undefined,
  handler: (w) => {
    const content = w.runtime.content;
    const own: MethodHandler | undefined =
      content?.hasResources === true
        ? async (request, ctx) =>
            content.readResource(
              request?.params?.uri,
              await w.contextOf(ctx, `resources/read:${String(request?.params?.uri)}`),
            )
        : undefined;
    return w.skills === undefined ? own! : readWithSkillFiles(w.skills, w.era, grantedBy(w.rctxOf), own);
  },
});
