import { SKILLS_GET_METHOD } from '../../skills/skillsWire.js';
import { getSkill, grantedBy } from '../skillHandlers.js';
import { defineMethod } from './MethodDefinition.js';

/** `skills/get` (SEP-2640, v2 SDK line). */
export const skillsGet = defineMethod({
  method: SKILLS_GET_METHOD,
  needs: (w) => w.skills !== undefined,
  handler: (w) => getSkill(w.skills!, w.era, grantedBy(w.rctxOf)),
});
