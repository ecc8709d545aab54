import { ScopeFilter, type ScopedItem } from '../../auth/ScopeFilter.js';
import { insufficientScopeMeta } from '../../auth/insufficientScope.js';
import type { WirePrompt, WireResource, WireResourceTemplate } from '../../domain/types.js';
import { JsonRpcCode, WireError } from '../../errors/WireError.js';
import type { FusionPrompt } from '../../prompts/types.js';
import { messages as texts } from '../../protocol/messages.js';
import type { HandlerExtra } from '../../protocol/types.js';
import type { FusionResource, FusionResourceTemplate } from '../../resources/types.js';
import type {
  ContentSource,
  ContentView,
  PromptListResult,
  ResourceListResult,
  ResourceTemplateListResult,
} from './contentTypes.js';

/**
 * The prompts and resources of a content runtime, found by name or URI, and what each caller may see of them:
 * the frozen lists, one view per OAuth scope set, and the scope checks of a single item.
 */
export class ContentIndex<Ctx> {
  readonly prompts: ReadonlyMap<string, FusionPrompt<Ctx>>;
  readonly resources: ReadonlyMap<string, FusionResource<Ctx>>;
  readonly templates: readonly FusionResourceTemplate<Ctx>[];
  readonly templatesByUri: ReadonlyMap<string, FusionResourceTemplate<Ctx>>;
  /** True when a prompt or template declares a completer. */
  readonly hasCompletions: boolean;
  readonly #listers: readonly FusionResourceTemplate<Ctx>[];
  readonly #promptList: PromptListResult;
  readonly #resourceList: ResourceListResult;
  readonly #templateList: ResourceTemplateListResult;
  readonly #scopes: ScopeFilter<ContentView>;

  constructor(source: ContentSource<Ctx>) {
    this.prompts = new Map(source.prompts.map((p) => [p.name, p]));
    this.resources = new Map(source.resources.map((r) => [r.uri, r]));
    this.templates = Object.freeze([...source.resourceTemplates]);
    this.templatesByUri = new Map(this.templates.map((t) => [t.uriTemplate, t]));
    this.hasCompletions =
      source.prompts.some((p) => p.completers.size > 0) || this.templates.some((t) => t.completers.size > 0);
    this.#listers = this.templates.filter((t) => t.list !== undefined);
    this.#promptList = Object.freeze({
      prompts: Object.freeze(source.prompts.map((p) => p.definition)) as WirePrompt[],
    });
    this.#resourceList = Object.freeze({
      resources: Object.freeze(source.resources.map((r) => r.definition)) as WireResource[],
    });
    this.#templateList = Object.freeze({
      resourceTemplates: Object.freeze(this.templates.map((t) => t.definition)) as WireResourceTemplate[],
    });
    this.#scopes = new ScopeFilter([...source.prompts, ...source.resources, ...this.templates]);
  }

  /** The lists the caller may see: everything, or what its token's scopes allow (cached per scope set). */
  view(extra: HandlerExtra | undefined): ContentView {
    const all = {
      prompts: this.#promptList,
      resources: this.#resourceList,
      templates: this.#templateList,
      listers: this.#listers,
    };
    if (!this.#scopes.active) return all;
    return this.#scopes.view(ScopeFilter.scopesOf(extra?.authInfo), (allowed) => ({
      prompts: Object.freeze({
        prompts: [...this.prompts.values()].filter(allowed).map((p) => p.definition) as WirePrompt[],
      }),
      resources: Object.freeze({
        resources: [...this.resources.values()].filter(allowed).map((r) => r.definition) as WireResource[],
      }),
      templates: Object.freeze({
        resourceTemplates: this.templates.filter(allowed).map((t) => t.definition) as WireResourceTemplate[],
      }),
      listers: this.#listers.filter(allowed),
    }));
  }

  /** The names of the prompts the caller may see (what an error may name). */
  visiblePrompts(extra: HandlerExtra): string[] {
    return this.view(extra).prompts.prompts.map((p) => p.name);
  }

  /** Refuses `item` (-32602 `insufficient_scope`, with the missing scopes in `data`) unless the caller's scopes allow it. */
  authorize(item: ScopedItem, what: string, extra: HandlerExtra): void {
    if (!this.#scopes.active) return;
    const missing = this.#scopes.missing(item, ScopeFilter.scopesOf(extra.authInfo));
    if (missing.length === 0) return;
    const required = item.requiredScopes!;
    throw new WireError(
      JsonRpcCode.InvalidParams,
      texts.insufficientScope(what, required, missing, 'resource'),
      insufficientScopeMeta(required, missing),
    );
  }

  /**
   * True when `item` requires a scope the token of `extra` lacks. A resource or template hidden so answers as
   * a missing one (a URI can name data: its existence is not told to a caller who may not read it).
   */
  hides(item: ScopedItem, extra: HandlerExtra | undefined): boolean {
    if (!this.#scopes.active) return false;
    return this.#scopes.missing(item, ScopeFilter.scopesOf(extra?.authInfo)).length > 0;
  }

  /** True when a caller with `authInfo` may read `uri` (an unknown URI included). */
  allowsUri(uri: string, authInfo: unknown): boolean {
    const item = this.resourceAt(uri);
    return item === undefined || !this.#scopes.active || this.#scopes.allows(item, ScopeFilter.scopesOf(authInfo));
  }

  /** The fixed resource at `uri`, else the first template that matches it. */
  resourceAt(uri: string): ScopedItem | undefined {
    return this.resources.get(uri) ?? this.templates.find((t) => t.compiled.match(uri) !== undefined);
  }

  /** The prompt or the resource (template or fixed) a completion `ref` names. */
  completed(ref: unknown): ScopedItem | undefined {
    const r = (ref ?? {}) as { type?: unknown; name?: unknown; uri?: unknown };
    if (r.type === 'ref/prompt' && typeof r.name === 'string') return this.prompts.get(r.name);
    if (r.type === 'ref/resource' && typeof r.uri === 'string')
      return this.templatesByUri.get(r.uri) ?? this.resources.get(r.uri);
    return undefined;
  }
}
