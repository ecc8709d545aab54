import * as sdk from '@modelcontextprotocol/server/ext/skills';
import { expect, it } from 'vitest';
import * as ours from '../../src/skills/skillsWire.js';

it('names the skills extension and its methods as the SDK does', () => {
  const { SKILLS_EXTENSION_ID, SKILLS_LIST_METHOD, SKILLS_GET_METHOD } = ours;
  expect({ SKILLS_EXTENSION_ID, SKILLS_LIST_METHOD, SKILLS_GET_METHOD }).toEqual({
    SKILLS_EXTENSION_ID: sdk.SKILLS_EXTENSION_ID,
    SKILLS_LIST_METHOD: sdk.SKILLS_LIST_METHOD,
    SKILLS_GET_METHOD: sdk.SKILLS_GET_METHOD,
  });
});
