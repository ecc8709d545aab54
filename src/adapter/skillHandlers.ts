import { RESOURCES_DIRECTORY_READ_METHOD, SKILLS_GET_METHOD, SKILLS_LIST_METHOD } from '../skills/skillsWire.js';
import { skillFileMimeType } from '../skills/skillDirectories.js';
import { ScopeGate } from '../auth/ScopeGate.js';
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

/**
 * The request handlers that serve `skills`: `skills/list`, `skills/get` and `resources/directory/read` (the
 * skill folders), and `resources/list` and `resources/read` for the skill files (wrapping `existing` ones,
 * which answer every other URI). Each answers with what the caller's scopes let it see.
 */
export function skillHandlers(
  skills: SkillSet,
  era: ProtocolEra | undefined,
  scopeOf: (ctx: unknown) => RequestContext,
  existing: ReadonlyMap<string, MethodHandler>,
): Array<readonly [string, MethodHandler]> {
  const granted = (ctx: unknown): readonly string[] => ScopeGate.scopesOf(scopeOf(ctx).extra.authInfo);
  const cache = era === 'modern' ? MODERN_CACHE : {};
  const listResources = existing.get('resources/list');
  const readResource = existing.get('resources/read');
  return [
    [
      SKILLS_LIST_METHOD,
      async (_request, ctx) => ({
        skills: await Promise.all(skills.visible(granted(ctx)).map((s) => s.entry())),
        ...cache,
      }),
    ],
    [
      SKILLS_GET_METHOD,
      async (request: { params?: { uri?: unknown } }, ctx) => {
        const uri = request?.params?.uri;
        if (typeof uri !== 'string')
          throw new WireError(
            JsonRpcCode.InvalidParams,
            'skills/get needs a "uri": the SKILL.md URI of a listed skill.',
          );
        const skill = skills.visible(granted(ctx)).find((s) => s.uri === uri);
        if (skill === undefined)
          throw new WireError(
            JsonRpcCode.InvalidParams,
            `No skill is served at ${uri}; call skills/list for the skills this server serves to you.`,
            { uri },
          );
        return { skill: await skill.entry(), ...cache };
      },
    ],
    [
      RESOURCES_DIRECTORY_READ_METHOD,
      async (request: { params?: { uri?: unknown; cursor?: unknown } }, ctx) => {
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
      },
    ],
    [
      'resources/list',
      async (request, ctx) => {
        const listed = (await listResources?.(request, ctx)) as { resources?: unknown[] } | undefined;
        const own = skills.visible(granted(ctx)).map((s) => ({
          uri: s.uri,
          name: s.name,
          description: s.description,
          mimeType: 'text/markdown',
        }));
        return { ...listed, resources: [...(listed?.resources ?? []), ...own] };
      },
    ],
    [
      'resources/read',
      async (request: { params?: { uri?: unknown } }, ctx) => {
        const uri = request?.params?.uri;
        const text = typeof uri === 'string' && uri.startsWith('skill://') ? skills.read(uri, granted(ctx)) : undefined;
        if (text !== undefined)
          return {
            contents: [{ uri, mimeType: skillFileMimeType(String(uri)), text }],
            ...cache,
          };
        if (readResource !== undefined) return readResource(request, ctx);
        throw new WireError(JsonRpcCode.ResourceNotFound, `Resource not found: ${String(uri)}`, { uri });
      },
    ],
  ];
}
