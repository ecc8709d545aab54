import { RESOURCES_DIRECTORY_READ_METHOD } from '../../skills/skillsWire.js';
import { grantedBy, readSkillDirectory } from '../skillHandlers.js';
import { defineMethod } from './MethodDefinition.js';

/** `resources/directory/read`: a skill folder's files (SEP-2640, v2 SDK line). */
export const resourcesDirectoryRead = defineMethod({
  method: RESOURCES_DIRECTORY_READ_METHOD,
  needs: (w) => w.skills !== undefined,
  handler: (w) => readSkillDirectory(w.skills!, w.era, grantedBy(w.rctxOf)),
});
