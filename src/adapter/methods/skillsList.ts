import { SKILLS_LIST_METHOD } from '../../skills/skillsWire.js';
import { grantedBy, listSkills } from '../skillHandlers.js';
import { defineMethod } from './MethodDefinition.js';

/** `skills/list` (SEP-2640, v2 SDK line). */
export const skillsList = defineMethod({
  method: SKILLS_LIST_METHOD,
  needs: (w) => w.skills !== undefined,
  handler: (w) => listSkills(w.skills!, w.era, grantedBy(w.rctxOf)),
});
