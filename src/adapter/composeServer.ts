import { AttachError } from '../errors/FusionError.js';
import { JsonRpcCode, WireError } from '../errors/WireError.js';
import type { MethodHandler } from './contentHandlers.js';
import { messages } from '../protocol/messages.js';
import { installedHandler, type StoredHandler } from './sdkHandlers.js';

/** The names one party (a registry, or the server itself) serves, by kind. */
export interface ServedNames {
  readonly tools: readonly string[];
  readonly prompts: readonly string[];
  readonly resources: readonly string[];
  readonly templates: readonly string[];
}

/** One registry attached to a server: its handlers and what it owns. */
export interface Member {
  readonly handlers: ReadonlyMap<string, MethodHandler>;
  readonly names: ServedNames;
  /** True when this registry answers `request` of a routed method (a tool, prompt or resource it serves). */
  owns(method: string, request: any): boolean;
  /** The tool names this caller may see now (workflow state, run-time switch, filters). */
  visibleTools(ctx: unknown): Promise<readonly string[]>;
}

/** Everything answering one server's requests: the server's own handlers and the attached registries. */
interface Composition {
  readonly base: Map<string, StoredHandler>;
  readonly members: Member[];
  readonly methods: Set<string>;
}

const compositions = new WeakMap<object, Composition>();

const LISTS: Record<string, { key: string; kind: keyof ServedNames; name: (entry: any) => string }> = {
  'tools/list': { key: 'tools', kind: 'tools', name: (e) => e?.name },
  'prompts/list': { key: 'prompts', kind: 'prompts', name: (e) => e?.name },
  'resources/list': { key: 'resources', kind: 'resources', name: (e) => e?.uri },
  'resources/templates/list': { key: 'resourceTemplates', kind: 'templates', name: (e) => e?.uriTemplate },
};

const KIND_TEXT: Record<keyof ServedNames, string> = {
  tools: 'Tool',
  prompts: 'Prompt',
  resources: 'Resource',
  templates: 'Resource template',
};

/**
 * Adds a registry to a server: its handlers answer what it owns, the server's own handlers (an
 * `McpServer`'s `registerTool()` entries, or a low-level server's handlers) and other registries answer
 * the rest, and lists are merged. Throws an {@link AttachError} naming a tool, prompt, resource or
 * template that `own` (the server's entries known now) or an earlier registry already serves.
 */
export function compose(
  low: object,
  member: Member,
  own: ServedNames,
  install: (method: string, handler: MethodHandler) => void,
  remove: (method: string) => void,
): void {
  let composition = compositions.get(low);
  const members = composition?.members ?? [];
  assertDistinct(
    member.names,
    own,
    'the server itself (its own registerTool(), registerPrompt() or registerResource())',
  );
  members.forEach((other, i) =>
    assertDistinct(member.names, other.names, `registry #${i + 1} attached to this server earlier`),
  );
  if (composition === undefined) {
    composition = { base: new Map(), members, methods: new Set() };
    compositions.set(low, composition);
  }
  for (const method of member.handlers.keys()) {
    if (composition.methods.has(method)) continue;
    const existing = installedHandler(low, method);
    if (existing !== undefined) {
      composition.base.set(method, existing);
      remove(method);
    }
  }
  members.push(member);
  for (const method of member.handlers.keys()) composition.methods.add(method);
  // The common case (one registry on a server of its own) installs the registry's handlers as they are.
  const alone = composition.base.size === 0 && members.length === 1;
  for (const method of composition.methods)
    install(method, alone ? member.handlers.get(method)! : dispatcher(method, composition));
}

function assertDistinct(mine: ServedNames, theirs: ServedNames, who: string): void {
  for (const kind of Object.keys(KIND_TEXT) as Array<keyof ServedNames>) {
    const taken = new Set(theirs[kind]);
    const clash = mine[kind].find((n) => taken.has(n));
    if (clash !== undefined) {
      throw new AttachError(
        'ATTACH_NAME_TAKEN',
        `${KIND_TEXT[kind]} "${clash}" is served both by this registry and by ${who}. One server answers one "${clash}": rename one of them (or register it in one place only), or give this registry's exposed names another style (the nameStyle option).`,
        { kind, name: clash },
      );
    }
  }
}

function dispatcher(method: string, c: Composition): MethodHandler {
  const list = LISTS[method];
  if (list !== undefined) return listDispatcher(method, list, c);
  return async (request, ctx) => {
    const handlers = c.members.filter((m) => m.handlers.has(method));
    const base = c.base.get(method);
    if (base === undefined && handlers.length === 1) return handlers[0]!.handlers.get(method)!(request, ctx);
    const owner = handlers.find((m) => m.owns(method, request));
    if (owner !== undefined) return owner.handlers.get(method)!(request, ctx);
    if (method === 'tools/call') return callForeign(request, ctx, c, base);
    if (base === undefined) return handlers[0]!.handlers.get(method)!(request, ctx);
    try {
      return await base(request, ctx);
    } catch (error) {
      // Neither knows it: the registry's answer names what exists and what to do (and keeps -32002 for resources).
      if (handlers.length > 0 && (await isNotFound(error, method, request, ctx, c)))
        return handlers[0]!.handlers.get(method)!(request, ctx);
      throw error;
    }
  };
}

/**
 * Whether the server's own handler refused `request` because it serves no such prompt, resource or template:
 * -32002, or -32602 (what both SDK lines' `McpServer` throw for an unknown name) for a name its own lists
 * do not hold. Told by the code and the server's lists, never by the error's wording.
 */
async function isNotFound(
  error: unknown,
  method: string,
  request: any,
  ctx: unknown,
  c: Composition,
): Promise<boolean> {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === JsonRpcCode.ResourceNotFound) return true;
  if (code !== JsonRpcCode.InvalidParams) return false;
  const listed = async (list: string, key: string): Promise<any[]> => {
    const handler = c.base.get(list);
    return handler === undefined
      ? []
      : (((await handler({ method: list, params: {} }, ctx)) as Record<string, any[] | undefined>)[key] ?? []);
  };
  const params = request?.params;
  const ref = params?.ref;
  if (method === 'prompts/get' || (method === 'completion/complete' && ref?.type === 'ref/prompt')) {
    const name = method === 'prompts/get' ? params?.name : ref?.name;
    return !(await listed('prompts/list', 'prompts')).some((p) => p?.name === name);
  }
  const templates = (await listed('resources/templates/list', 'resourceTemplates')).map((t) => String(t?.uriTemplate));
  if (method === 'completion/complete') return !templates.includes(ref?.uri);
  const uri = String(params?.uri);
  if ((await listed('resources/list', 'resources')).some((r) => r?.uri === uri)) return false;
  return !templates.some((t) => templatePattern(t).test(uri));
}

function listDispatcher(method: string, list: (typeof LISTS)[string], c: Composition): MethodHandler {
  return async (request, ctx) => {
    const handlers = c.members.filter((m) => m.handlers.has(method));
    const base = c.base.get(method);
    if (base === undefined && handlers.length === 1) return handlers[0]!.handlers.get(method)!(request, ctx);
    const parts = (await Promise.all([
      base?.(request, ctx),
      ...handlers.map((m) => m.handlers.get(method)!(request, ctx)),
    ])) as Array<Record<string, unknown> | undefined>;
    // Only the first registry lists anything (an McpServer without entries of its own): its frozen list as is.
    const fusion = parts.slice(1).find((p) => p !== undefined) ?? {};
    const only =
      fusion[list.key] !== undefined &&
      parts.every((p) => p === fusion || ((p?.[list.key] as unknown[] | undefined) ?? []).length === 0);
    if (only) return fusion;
    const seen = new Set<string>();
    const entries: unknown[] = [];
    for (const part of parts) {
      for (const entry of (part?.[list.key] as unknown[] | undefined) ?? []) {
        const name = list.name(entry);
        if (seen.has(name)) {
          throw new WireError(
            JsonRpcCode.InternalError,
            `${KIND_TEXT[list.kind]} "${name}" is served twice on this server (by the server's own entries and by an attached mcp-fusion registry, or by two registries). Rename one of them.`,
          );
        }
        seen.add(name);
        entries.push(entry);
      }
    }
    // The registries' result fields (a modern list's ttlMs and cacheScope) are kept; entries are merged in order.
    return { ...fusion, [list.key]: entries };
  };
}

/** A tool no registry owns: the server's own, or unknown (answered with every tool the caller may see now). */
async function callForeign(
  request: any,
  ctx: unknown,
  c: Composition,
  base: StoredHandler | undefined,
): Promise<unknown> {
  const name = String(request?.params?.name);
  const unknown = async (serverTools: readonly string[]): Promise<never> => {
    const visible = (await Promise.all(c.members.map((m) => m.visibleTools(ctx)))).flat();
    throw new WireError(JsonRpcCode.InvalidParams, messages.unknownTool(name, [...serverTools, ...visible]));
  };
  if (base === undefined) return unknown([]);
  const serverTools = async (): Promise<string[]> => {
    const listBase = c.base.get('tools/list');
    if (listBase === undefined) return [];
    const listed = (await listBase({ method: 'tools/list', params: {} }, ctx)) as { tools?: Array<{ name: string }> };
    return (listed.tools ?? []).map((t) => t.name);
  };
  // The server's own tools are called directly; only a failure costs a listing, to tell "unknown" apart.
  let result: unknown;
  try {
    result = await base(request, ctx);
  } catch (error) {
    const tools = await serverTools();
    if (!tools.includes(name)) return unknown(tools);
    throw error;
  }
  if ((result as { isError?: boolean } | undefined)?.isError === true) {
    const tools = await serverTools();
    if (!tools.includes(name)) return unknown(tools);
  }
  return result;
}

/** A URI template's RFC 6570 expressions as a pattern (`{+x}`/`{#x}` span slashes, the others do not). */
function templatePattern(template: string): RegExp {
  const parts = template.split(/(\{[^}]*\})/);
  const source = parts
    .map((part) =>
      part.startsWith('{') ? (/^\{[+#]/.test(part) ? '.*' : '[^/]*') : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('');
  return new RegExp(`^${source}$`);
}
