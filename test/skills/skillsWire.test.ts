import * as sdk from '@modelcontextprotocol/server/ext/skills';
import { expect, it } from 'vitest';
import * as ours from '../../src/skills/skillsWire.js';
import { DIRECTORY_MIME_TYPE } from '../../src/skills/skillDirectories.js';

it('names the skills extension, its methods and the directory mime type as the SDK does', () => {
  const { SKILLS_EXTENSION_ID, SKILLS_LIST_METHOD, SKILLS_GET_METHOD, RESOURCES_DIRECTORY_READ_METHOD } = ours;
  expect({ SKILLS_EXTENSION_ID, SKILLS_LIST_METHOD, SKILLS_GET_METHOD, RESOURCES_DIRECTORY_READ_METHOD }).toEqual({
    SKILLS_EXTENSION_ID: sdk.SKILLS_EXTENSION_ID,
    SKILLS_LIST_METHOD: sdk.SKILLS_LIST_METHOD,
    SKILLS_GET_METHOD: sdk.SKILLS_GET_METHOD,
    RESOURCES_DIRECTORY_READ_METHOD: sdk.RESOURCES_DIRECTORY_READ_METHOD,
  });
  expect(DIRECTORY_MIME_TYPE).toBe(sdk.DIRECTORY_MIME_TYPE);
});
