import { RESOURCES_DIRECTORY_READ_METHOD, SKILLS_GET_METHOD, SKILLS_LIST_METHOD } from '../skills/skillsWire.js';
import { skillFileMimeType } from '../skills/skillDirectories.js';
import { ScopeFilter } from '../auth/ScopeFilter.js';
import { JsonRpcCode, WireError } from '../errors/WireError.js';
import type { ProtocolEra } from '../protocol/types.js';
import type { SkillSet } from '../skills/SkillSet.js';
import type { RequestContext } from '../surface/types.js';
import type { MethodHandler } from './contentHandlers.js';

/** The skills methods (SEP-2640); a v2 `Server` takes them with a params schema, as extension methods. */
export const SKILL_METHODS: ReadonlySet<string> = new Set([
  SKILLS_LIST_METHOD,
  SKILLS_GET_METHOD,
  RESOURCES_DIRECTORY_READ_METHOD,
]);

/** The list-caching fields the 2026-07-28 era requires on skills results (skills follow the caller's scopes). */
const MODERN_CACHE = Object.freeze({ ttlMs: 0, cacheScope: 'private' as const });

/** The scopes the caller of an SDK handler context holds (skills answer with what they let it see). */
export type GrantedOf = (ctx: unknown) => readonly string[];

/** The scopes granted to the caller of `ctx`, read from its request context. */
export function grantedBy(rctxOf: (ctx: unknown) => RequestContext): GrantedOf {
  return (ctx) => ScopeFilter.scopesOf(rctxOf(ctx).extra.authInfo);
}

/** The result fields every skills answer of `era` carries. */
function cacheOf(era: ProtocolEra | undefined): Readonly<Record<string, unknown>> {
  return era === 'modern' ? MODERN_CACHE : {};
}

/** `skills/list`: the skills the caller's scopes let it see. */
export function listSkills(skills: SkillSet, era: ProtocolEra | undefined, granted: GrantedOf): MethodHandler {
  const cache = cacheOf(era);
  return async (_request, ctx) => ({
    skills: await Promise.all(skills.visible(granted(ctx)).map((s) => s.entry())),
    ...cache,
  });
}

/** `skills/get`: one listed skill by its SKILL.md URI. */
export function getSkill(skills: SkillSet, era: ProtocolEra | undefined, granted: GrantedOf): MethodHandler {
  const cache = cacheOf(era);
  return async (request: { params?: { uri?: unknown } }, ctx) => {
    const uri = request?.params?.uri;
    if (typeof uri !== 'string')
      throw new WireError(JsonRpcCode.InvalidParams, 'skills/get needs a "uri": the SKILL.md URI of a listed skill.');
    const skill = skills.visible(granted(ctx)).find((s) => s.uri === uri);
    if (skill === undefined)
      throw new WireError(
        JsonRpcCode.InvalidParams,
        `No skill is served at ${uri}; call skills/list for the skills this server serves to you.`,
        { uri },
      );
    return { skill: await skill.entry(), ...cache };
  };
}

/** `resources/directory/read`: the files of one skill folder, in one page. */
export function readSkillDirectory(skills: SkillSet, era: ProtocolEra | undefined, granted: GrantedOf): MethodHandler {
  const cache = cacheOf(era);
  return async (request: { params?: { uri?: unknown; cursor?: unknown } }, ctx) => {
    const { uri, cursor } = request?.params ?? {};
    if (typeof uri !== 'string')
      throw new WireError(
        JsonRpcCode.InvalidParams,
        'resources/directory/read needs a "uri": a skill folder such as skill://<name> (no trailing slash).',
      );
    // Every folder is one page: no cursor is ever handed out, so none can come back.
    if (cursor !== undefined)
      throw new WireError(
        JsonRpcCode.InvalidParams,
        'Invalid cursor: skill folders are listed in one page; call again without "cursor".',
        { uri },
      );
    const resources = skills.readDirectory(uri, granted(ctx));
    if (resources === undefined)
      throw new WireError(
        JsonRpcCode.InvalidParams,
        `${uri} is not a skill folder served to you; read a folder such as skill://<name> (a file is read with resources/read).`,
        { uri },
      );
    return { resources, ...cache };
  };
}

/** `resources/list` with the caller's skill files after what `listResources` (the registry's) lists. */
export function listWithSkillFiles(
  skills: SkillSet,
  granted: GrantedOf,
  listResources: MethodHandler | undefined,
): MethodHandler {
  return async (request, ctx) => {
    const listed = (await listResources?.(request, ctx)) as { resources?: unknown[] } | undefined;
    const own = skills.visible(granted(ctx)).map((s) => ({
      uri: s.uri,
      name: s.name,
      description: s.description,
      mimeType: 'text/markdown',
    }));
    return { ...listed, resources: [...(listed?.resources ?? []), ...own] };
  };
}

/** `resources/read` answering skill files itself and every other URI with `readResource` (the registry's). */
export function readWithSkillFiles(
  skills: SkillSet,
  era: ProtocolEra | undefined,
  granted: GrantedOf,
  readResource: MethodHandler | undefined,
): MethodHandler {
  const cache = cacheOf(era);
  return async (request: { params?: { uri?: unknown } }, ctx) => {
    const uri = request?.params?.uri;
    const text = typeof uri === 'string' && uri.startsWith('skill://') ? skills.read(uri, granted(ctx)) : undefined;
    if (text !== undefined) return { contents: [{ uri, mimeType: skillFileMimeType(String(uri)), text }], ...cache };
    if (readResource !== undefined) return readResource(request, ctx);
    throw new WireError(JsonRpcCode.ResourceNotFound, `Resource not found: ${String(uri)}`, { uri });
  };
}
