import type { HandlerExtra } from '../protocol/types.js';
import { normalizeCompletion } from '../completion/completers.js';
import type { CompleteResult, Completer } from '../completion/types.js';
import type { WirePrompt, WireResource, WireResourceTemplate } from '../domain/types.js';
import {
  contextOf,
  type ContentSource,
  type ContentView,
  type ContextOrExtra,
  type PromptListResult,
  type ResourceListResult,
  type ResourceTemplateListResult,
} from './contentTypes.js';
import { JsonRpcCode, WireError } from '../errors/WireError.js';
import type { FusionPrompt, GetPromptResult } from '../prompts/types.js';

export type {
  ContentSource,
  PromptListResult,
  ResourceListResult,
  ResourceTemplateListResult,
} from './contentTypes.js';
import type { AttachOptions } from './options.js';
import type { FusionResource, FusionResourceTemplate, ReadResourceResult } from '../resources/types.js';
import { contentMessages as messages } from '../protocol/contentMessages.js';
import { neutralizeMessages } from '../protocol/neutralizeSignals.js';
import { ScopeGate, type ScopedItem } from '../auth/ScopeGate.js';
import { insufficientScopeMeta } from '../auth/insufficientScope.js';
import { messages as texts } from '../protocol/messages.js';
import { guardHandler } from './guardHandler.js';
import { composeStages } from './callStages.js';
import type { ContentCall, ContentMethod } from './contentCall.js';
import { RuntimeCore } from './RuntimeCore.js';
import { RateLimiter } from './RateLimiter.js';
import { logFields, runContent } from './runContent.js';
import { contentPath } from './stages/pathOf.js';
import { stageList } from './stages/stageList.js';
import type { ContentStageParts, StageDefinition } from './stages/StageDefinition.js';

/** The longest resource URI `resources/read` accepts (docs/security.md). */
const MAX_URI_LENGTH = 2_048;

/**
 * The content runtime: the SDK-independent server side of prompts and resources, built once per registry
 * and options. Lists come from frozen data; `prompts/get`, `resources/read` and `completion/complete` find
 * their target, then run through its stages (`stages/stageList.ts`: scopes, rate limit, drain), then the
 * handler under its deadline (`prompts/get` validates the arguments first). Protocol problems throw a
 * {@link WireError} (-32602 for a bad name or argument, -32002 "Resource not found" with `data: { uri }`,
 * -32603 for a failing handler).
 * @see docs/prompts-and-resources.md
 */
export class ContentRuntime<Ctx> {
  readonly #prompts: ReadonlyMap<string, FusionPrompt<Ctx>>;
  readonly #resources: ReadonlyMap<string, FusionResource<Ctx>>;
  readonly #templates: readonly FusionResourceTemplate<Ctx>[];
  readonly #templatesByUri: ReadonlyMap<string, FusionResourceTemplate<Ctx>>;
  readonly #hasCompletions: boolean;
  readonly #listers: readonly FusionResourceTemplate<Ctx>[];
  readonly #promptList: PromptListResult;
  readonly #resourceList: ResourceListResult;
  readonly #templateList: ResourceTemplateListResult;
  readonly #scopes: ScopeGate<ContentView>;
  readonly #core: RuntimeCore;
  readonly #parts: ContentStageParts;
  readonly #stages: readonly StageDefinition[];
  readonly #plans = new Map<object, Partial<Record<ContentMethod, (call: ContentCall) => Promise<unknown>>>>();
  readonly #run: (call: ContentCall) => Promise<unknown>;

  /** The content of `source` under `options`; a runtime passes the `parts` its tools share (the core, rate limits). */
  constructor(
    source: ContentSource<Ctx>,
    options: AttachOptions<Ctx> = {},
    parts?: ContentStageParts,
    stages: readonly StageDefinition[] = stageList,
  ) {
    this.#prompts = new Map(source.prompts.map((p) => [p.name, p]));
    this.#resources = new Map(source.resources.map((r) => [r.uri, r]));
    this.#templates = Object.freeze([...source.resourceTemplates]);
    this.#templatesByUri = new Map(this.#templates.map((t) => [t.uriTemplate, t]));
    this.#hasCompletions =
      source.prompts.some((p) => p.completers.size > 0) || this.#templates.some((t) => t.completers.size > 0);
    this.#listers = this.#templates.filter((t) => t.list !== undefined);
    this.#promptList = Object.freeze({
      prompts: Object.freeze(source.prompts.map((p) => p.definition)) as WirePrompt[],
    });
    this.#resourceList = Object.freeze({
      resources: Object.freeze(source.resources.map((r) => r.definition)) as WireResource[],
    });
    this.#templateList = Object.freeze({
      resourceTemplates: Object.freeze(this.#templates.map((t) => t.definition)) as WireResourceTemplate[],
    });
    const core = parts?.core ?? new RuntimeCore(options);
    this.#core = core;
    this.#parts = parts ?? { core, limits: RateLimiter.for([], options) };
    this.#stages = stages;
    this.#run = runContent(core);
    this.#scopes = new ScopeGate([...source.prompts, ...source.resources, ...this.#templates]);
  }

  /** The lists the caller may see: everything, or what its token's scopes allow (cached per scope set). */
  #view(extra: HandlerExtra | undefined): ContentView {
    const all = {
      prompts: this.#promptList,
      resources: this.#resourceList,
      templates: this.#templateList,
      listers: this.#listers,
    };
    if (!this.#scopes.active) return all;
    return this.#scopes.view(ScopeGate.scopesOf(extra?.authInfo), (allowed) => ({
      prompts: Object.freeze({
        prompts: [...this.#prompts.values()].filter(allowed).map((p) => p.definition) as WirePrompt[],
      }),
      resources: Object.freeze({
        resources: [...this.#resources.values()].filter(allowed).map((r) => r.definition) as WireResource[],
      }),
      templates: Object.freeze({
        resourceTemplates: this.#templates.filter(allowed).map((t) => t.definition) as WireResourceTemplate[],
      }),
      listers: this.#listers.filter(allowed),
    }));
  }

  /** Refuses `item` (-32602 `insufficient_scope`, with the missing scopes in `data`) unless the caller's scopes allow it. */
  #authorize(item: ScopedItem, what: string, extra: HandlerExtra): void {
    if (!this.#scopes.active) return;
    const missing = this.#scopes.missing(item, ScopeGate.scopesOf(extra.authInfo));
    if (missing.length === 0) return;
    const required = item.requiredScopes!;
    throw new WireError(
      JsonRpcCode.InvalidParams,
      texts.insufficientScope(what, required, missing, 'resource'),
      insufficientScopeMeta(required, missing),
    );
  }

  /**
   * The scopes the target of `prompts/get`, `resources/read`, `resources/subscribe` or `completion/complete`
   * requires (for the HTTP scope challenge): a completion requires what its prompt or template requires.
   */
  requiredScopesOf(method: string, params: Record<string, unknown>): readonly string[] {
    if (method === 'prompts/get' && typeof params.name === 'string')
      return this.#prompts.get(params.name)?.requiredScopes ?? [];
    if (method === 'completion/complete') return this.#completed(params.ref)?.requiredScopes ?? [];
    if ((method !== 'resources/read' && method !== 'resources/subscribe') || typeof params.uri !== 'string') return [];
    return this.#resourceAt(params.uri)?.requiredScopes ?? [];
  }

  /**
   * Refuses `resources/subscribe` of `uri` (-32602 `insufficient_scope`, as `resources/read`) when its
   * resource or template requires a scope the caller lacks; an unknown URI is left to the subscription check.
   */
  authorizeUri(uri: unknown, extra: HandlerExtra): void {
    const item = typeof uri === 'string' ? this.#resourceAt(uri) : undefined;
    if (item !== undefined) this.#authorize(item, `resource "${String(uri)}"`, extra);
  }

  /** True when a caller with `authInfo` may read `uri`: a pure check for filters (a listen stream's `resourceSubscriptions`). */
  allowsUri(uri: string, authInfo: unknown): boolean {
    const item = this.#resourceAt(uri);
    return item === undefined || !this.#scopes.active || this.#scopes.allows(item, ScopeGate.scopesOf(authInfo));
  }

  #resourceAt(uri: string): ScopedItem | undefined {
    return this.#resources.get(uri) ?? this.#templates.find((t) => t.compiled.match(uri) !== undefined);
  }

  /** The prompt or the resource (template or fixed) a completion `ref` names. */
  #completed(ref: unknown): ScopedItem | undefined {
    const r = (ref ?? {}) as { type?: unknown; name?: unknown; uri?: unknown };
    if (r.type === 'ref/prompt' && typeof r.name === 'string') return this.#prompts.get(r.name);
    if (r.type === 'ref/resource' && typeof r.uri === 'string')
      return this.#templatesByUri.get(r.uri) ?? this.#resources.get(r.uri);
    return undefined;
  }

  /** True when there is at least one prompt (the `prompts` capability). */
  get hasPrompts(): boolean {
    return this.#prompts.size > 0;
  }

  /** True when there is at least one resource or template (the `resources` capability). */
  get hasResources(): boolean {
    return this.#resources.size > 0 || this.#templates.length > 0;
  }

  /** True when a prompt or template declares a completer (the `completions` capability). */
  get hasCompletions(): boolean {
    return this.#hasCompletions;
  }

  /** True when `uri` names a fixed resource or matches a template (for subscription checks). */
  hasResource(uri: string): boolean {
    return this.#resources.has(uri) || this.#templates.some((t) => t.compiled.match(uri) !== undefined);
  }

  /** The URIs of the fixed resources, in registration order. */
  get resourceUris(): readonly string[] {
    return [...this.#resources.keys()];
  }

  /** `prompts/list`: the frozen list. */
  listPrompts(extra?: HandlerExtra): PromptListResult {
    return this.#view(extra).prompts;
  }

  /** `prompts/get`: finds the prompt, runs its stages, validates the arguments, runs the handler. */
  async getPrompt(name: unknown, args: unknown, context: ContextOrExtra): Promise<GetPromptResult> {
    const scope = contextOf(context);
    if (typeof name !== 'string')
      throw new WireError(JsonRpcCode.InvalidParams, messages.promptNameMissing(this.#visiblePrompts(scope.extra)));
    const prompt = this.#prompts.get(name);
    if (prompt === undefined)
      throw new WireError(JsonRpcCode.InvalidParams, messages.unknownPrompt(name, this.#visiblePrompts(scope.extra)));
    const result = await this.#call(
      'prompts/get',
      prompt,
      { scope, what: `prompt "${name}"`, kind: 'prompt', label: `Prompt "${name}"` },
      async (ctxOf, extra) => {
        const parsed = prompt.validate(args);
        if (!parsed.ok) throw new WireError(JsonRpcCode.InvalidParams, parsed.message);
        return prompt.run(parsed.value, (await ctxOf()) as Ctx, extra);
      },
    );
    return neutralizeMessages(result as GetPromptResult);
  }

  /** `resources/list`: the fixed resources, then what each template's `.list()` reports. */
  async listResources(context: ContextOrExtra): Promise<ResourceListResult> {
    const { extra } = contextOf(context);
    const view = this.#view(extra);
    if (view.listers.length === 0) return view.resources;
    const ctx = await this.#context('resources/list', extra);
    const listed = await Promise.all(
      view.listers.map((t) =>
        this.#guard(
          extra,
          `Resource template "${t.uriTemplate}"`,
          () => t.list!(ctx, extra),
          messages.listFailed.bind(null, t.uriTemplate),
        ),
      ),
    );
    return { resources: [...view.resources.resources, ...listed.flat()] };
  }

  /** `resources/templates/list`: the frozen list. */
  listResourceTemplates(context?: ContextOrExtra): ResourceTemplateListResult {
    return this.#view(context === undefined ? undefined : contextOf(context).extra).templates;
  }

  /** `resources/read`: the exact URI first, then the first template that matches it; then its stages and handler. */
  async readResource(uri: unknown, context: ContextOrExtra): Promise<ReadResourceResult> {
    const scope = contextOf(context);
    if (typeof uri !== 'string') throw new WireError(JsonRpcCode.InvalidParams, messages.resourceUriMissing());
    if (uri.length > MAX_URI_LENGTH)
      throw new WireError(JsonRpcCode.InvalidParams, messages.resourceUriTooLong(uri.length, MAX_URI_LENGTH));
    const how = { scope, what: `resource "${uri}"`, kind: 'resource', label: `Resource "${uri}"` } as const;
    let result: unknown;
    const resource = this.#resources.get(uri);
    if (resource !== undefined)
      result = await this.#call('resources/read', resource, how, async (ctxOf, extra) =>
        resource.read(uri, (await ctxOf()) as Ctx, extra),
      );
    else {
      for (const template of this.#templates) {
        const vars = template.compiled.match(uri);
        if (vars === undefined) continue;
        result = await this.#call('resources/read', template, how, async (ctxOf, extra) =>
          template.read(uri, vars, (await ctxOf()) as Ctx, extra),
        );
        break;
      }
    }
    // A template whose handler found nothing reads as not found.
    if (result !== undefined) return result as ReadResourceResult;
    const view = this.#view(scope.extra);
    const known = [
      view.resources.resources.map((r) => r.uri),
      view.templates.resourceTemplates.map((t) => t.uriTemplate),
    ] as const;
    throw new WireError(JsonRpcCode.ResourceNotFound, messages.resourceNotFound(uri, ...known), { uri });
  }

  /**
   * `completion/complete`: finds the prompt (`ref/prompt` by name) or the template (`ref/resource` by its
   * URI template, or a fixed resource's URI), runs its stages and the completer of the argument. An argument
   * without a completer gets no suggestions; an unknown prompt or template, or a malformed request, is -32602.
   */
  async complete(ref: unknown, argument: unknown, context: unknown, request: ContextOrExtra): Promise<CompleteResult> {
    const scope = contextOf(request);
    const r = (ref ?? {}) as { type?: unknown; name?: unknown; uri?: unknown };
    const a = (argument ?? {}) as { name?: unknown; value?: unknown };
    if (typeof a.name !== 'string' || typeof a.value !== 'string')
      throw new WireError(JsonRpcCode.InvalidParams, messages.completionArgumentMissing());
    let item: ScopedItem;
    let completers: ReadonlyMap<string, Completer<Ctx>>;
    let how: Omit<ContentCall, 'target' | 'run'>;
    if (r.type === 'ref/prompt' && typeof r.name === 'string') {
      const prompt = this.#prompts.get(r.name);
      if (prompt === undefined)
        throw new WireError(
          JsonRpcCode.InvalidParams,
          messages.unknownPrompt(r.name, this.#visiblePrompts(scope.extra)),
        );
      ({ completers } = item = prompt);
      how = {
        scope,
        what: `prompt "${r.name}"`,
        kind: 'prompt',
        label: `Completion of "${a.name}" of prompt "${r.name}"`,
      };
    } else if (r.type === 'ref/resource' && typeof r.uri === 'string') {
      const template = this.#templatesByUri.get(r.uri);
      const fixed = this.#resources.get(r.uri);
      if (template === undefined && fixed === undefined) {
        const known = this.#view(scope.extra).templates.resourceTemplates.map((t) => t.uriTemplate);
        throw new WireError(JsonRpcCode.InvalidParams, messages.unknownCompletionResource(r.uri, known));
      }
      item = (template ?? fixed)!;
      completers = template?.completers ?? new Map();
      how = {
        scope,
        what: `resource "${r.uri}"`,
        kind: 'resource',
        label: `Completion of "${a.name}" of resource template "${r.uri}"`,
      };
    } else {
      throw new WireError(JsonRpcCode.InvalidParams, messages.completionRefInvalid());
    }
    const completer = completers.get(a.name);
    const given = (context as { arguments?: unknown } | undefined)?.arguments;
    const args: Record<string, string> = {};
    if (typeof given === 'object' && given !== null)
      for (const [k, v] of Object.entries(given)) if (typeof v === 'string') args[k] = v;
    const value = a.value;
    return this.#call('completion/complete', item, how, async (ctxOf, extra) => {
      if (completer === undefined) return { completion: { values: [] } };
      return {
        completion: normalizeCompletion(
          await completer(value, { arguments: args }, (await ctxOf()) as Ctx, extra),
          how.label,
        ),
      };
    }) as Promise<CompleteResult>;
  }

  /** Runs one request through the stages of its target (compiled on the target's first request), then `run`. */
  #call(
    method: ContentMethod,
    item: ScopedItem,
    how: Omit<ContentCall, 'target' | 'run'>,
    run: ContentCall['run'],
  ): Promise<unknown> {
    let plans = this.#plans.get(item);
    if (plans === undefined) this.#plans.set(item, (plans = {}));
    let plan = plans[method];
    if (plan === undefined) {
      const stages = contentPath(this.#stages, { method, item }, this.#parts).map(([, stage]) => stage);
      plan = plans[method] = composeStages(stages, this.#run);
    }
    return plan({ ...how, target: { method, item }, run });
  }

  /** {@link guardHandler}, logging a handler failure once (errors meant for the client pass unlogged). */
  #guard<T>(
    extra: HandlerExtra,
    label: string,
    run: () => Promise<T>,
    describe?: (error: unknown) => string,
  ): Promise<T> {
    return guardHandler(label, run, describe, (error) =>
      this.#core.log.error('handler threw', logFields(label, extra), error),
    );
  }

  /** The names of the prompts the caller may see (what an error may name). */
  #visiblePrompts(extra: HandlerExtra): string[] {
    return this.#view(extra).prompts.prompts.map((p) => p.name);
  }

  async #context(label: string, extra: HandlerExtra): Promise<Ctx> {
    const factory = this.#core.options.contextFactory as AttachOptions<Ctx>['contextFactory'];
    if (factory === undefined) return undefined as Ctx;
    try {
      return await factory(extra);
    } catch (error) {
      this.#core.log.error('contextFactory threw', logFields(label, extra), error);
      throw new WireError(JsonRpcCode.InternalError, messages.contextFailed(label, error));
    }
  }
}
