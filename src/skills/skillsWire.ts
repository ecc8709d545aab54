/**
 * The skills extension's wire names (SEP-2640), as the SDK's `@modelcontextprotocol/server/ext/skills`
 * exports them. Kept here so that the registry and the adapter reach no SDK module at run time;
 * test/skills/skillsWire.test.ts checks they equal the SDK's.
 */
export const SKILLS_EXTENSION_ID = 'io.modelcontextprotocol/skills';
export const SKILLS_LIST_METHOD = 'skills/list';
export const SKILLS_GET_METHOD = 'skills/get';
/** Lists the direct children of a directory resource (declared by `directoryRead: true`). */
export const RESOURCES_DIRECTORY_READ_METHOD = 'resources/directory/read';
