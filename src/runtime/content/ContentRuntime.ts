import type { HandlerExtra } from '../../protocol/types.js';
import { normalizeCompletion } from '../../completion/completers.js';
import type { CompleteResult } from '../../completion/types.js';
import {
  contextOf,
  type ContentSource,
  type ContextOrExtra,
  type PromptListResult,
  type ResourceListResult,
  type ResourceTemplateListResult,
} from './contentTypes.js';
import { JsonRpcCode, WireError } from '../../errors/WireError.js';
import type { GetPromptResult } from '../../prompts/types.js';

export type {
  ContentSource,
  PromptListResult,
  ResourceListResult,
  ResourceTemplateListResult,
} from './contentTypes.js';
import type { AttachOptions } from '../core/options.js';
import type { ReadResourceResult } from '../../resources/types.js';
import { canonicalUri } from '../../resources/SubscriptionManager.js';
import { contentMessages as messages } from '../../protocol/contentMessages.js';
import { neutralizeMessages } from '../../protocol/neutralizeSignals.js';
import type { ScopedItem } from '../../auth/ScopeFilter.js';
import { guardHandler } from '../core/guardHandler.js';
import { logHandlerError } from '../core/logHandlerError.js';
import { composeStages } from '../stages/callStages.js';
import type { ContentCall, ContentMethod } from '../stages/contentCall.js';
import { RuntimeCore } from '../core/RuntimeCore.js';
import { ContentIndex } from './ContentIndex.js';
import { completionTarget } from './completionTarget.js';
import { RateLimiter } from '../core/RateLimiter.js';
import { runContent } from './runContent.js';
import { logFields } from '../stages/callLogFields.js';
import { contentPath } from '../stages/pathOf.js';
import { stageList } from '../stages/stageList.js';
import type { ContentStageParts, StageDefinition } from '../stages/StageDefinition.js';

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
  readonly #catalog: ContentIndex<Ctx>;
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
    this.#catalog = new ContentIndex(source);
    const core = parts?.core ?? new RuntimeCore(options);
    this.#core = core;
    this.#parts = parts ?? { core, limits: RateLimiter.for([], options) };
    this.#stages = stages;
    this.#run = runContent(core);
  }

  /**
   * The scopes the target of `prompts/get`, `resources/read`, `resources/subscribe` or `completion/complete`
   * requires (for the HTTP scope challenge): a completion requires what its prompt or template requires.
   */
  requiredScopesOf(method: string, params: Record<string, unknown>): readonly string[] {
    const catalog = this.#catalog;
    if (method === 'prompts/get' && typeof params.name === 'string')
      return catalog.prompts.get(params.name)?.requiredScopes ?? [];
    const ref = params.ref as { type?: unknown } | undefined;
    if (method === 'completion/complete' && ref?.type === 'ref/prompt')
      return catalog.completed(params.ref)?.requiredScopes ?? [];
    // A resource the token may not read answers as a missing one (no challenge that would tell it exists).
    return [];
  }

  /**
   * Refuses `resources/subscribe` of `uri` as an unknown URI (-32002 "Resource not found") when its resource
   * or template requires a scope the caller lacks, so that a subscription cannot probe what a read hides; an
   * unknown URI is left to the subscription check.
   */
  authorizeUri(uri: unknown, extra: HandlerExtra): void {
    const item = typeof uri === 'string' ? this.#catalog.resourceAt(uri) : undefined;
    if (item === undefined || !this.#catalog.hides(item, extra)) return;
    const canonical = canonicalUri(uri);
    throw new WireError(JsonRpcCode.ResourceNotFound, messages.subscribeNotFound(canonical), { uri: canonical });
  }

  /** True when a caller with `authInfo` may read `uri`: a pure check for filters (a listen stream's `resourceSubscriptions`). */
  allowsUri(uri: string, authInfo: unknown): boolean {
    return this.#catalog.allowsUri(uri, authInfo);
  }

  /** True when there is at least one prompt (the `prompts` capability). */
  get hasPrompts(): boolean {
    return this.#catalog.prompts.size > 0;
  }

  /** True when there is at least one resource or template (the `resources` capability). */
  get hasResources(): boolean {
    return this.#catalog.resources.size > 0 || this.#catalog.templates.length > 0;
  }

  /** True when a prompt or template declares a completer (the `completions` capability). */
  get hasCompletions(): boolean {
    return this.#catalog.hasCompletions;
  }

  /** True when `uri` names a fixed resource or matches a template (for subscription checks). */
  hasResource(uri: string): boolean {
    const { resources, templates } = this.#catalog;
    return resources.has(uri) || templates.some((t) => t.compiled.match(uri) !== undefined);
  }

  /** The URIs of the fixed resources, in registration order. */
  get resourceUris(): readonly string[] {
    return [...this.#catalog.resources.keys()];
  }

  /** `prompts/list`: the frozen list. */
  listPrompts(extra?: HandlerExtra): PromptListResult {
    return this.#catalog.view(extra).prompts;
  }

  /** `prompts/get`: finds the prompt, runs its stages, validates the arguments, runs the handler. */
  async getPrompt(name: unknown, args: unknown, context: ContextOrExtra): Promise<GetPromptResult> {
    const rctx = contextOf(context);
    if (typeof name !== 'string')
      throw new WireError(
        JsonRpcCode.InvalidParams,
        messages.promptNameMissing(this.#catalog.visiblePrompts(rctx.extra)),
      );
    const prompt = this.#catalog.prompts.get(name);
    if (prompt === undefined)
      throw new WireError(
        JsonRpcCode.InvalidParams,
        messages.unknownPrompt(name, this.#catalog.visiblePrompts(rctx.extra)),
      );
    const result = await this.#call(
      'prompts/get',
      prompt,
      { rctx, what: `prompt "${name}"`, kind: 'prompt', label: `Prompt "${name}"` },
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
    const view = this.#catalog.view(extra);
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
    return this.#catalog.view(context === undefined ? undefined : contextOf(context).extra).templates;
  }

  /** `resources/read`: the exact URI first, then the first template that matches it; then its stages and handler. */
  async readResource(uri: unknown, context: ContextOrExtra): Promise<ReadResourceResult> {
    const rctx = contextOf(context);
    if (typeof uri !== 'string') throw new WireError(JsonRpcCode.InvalidParams, messages.resourceUriMissing());
    if (uri.length > MAX_URI_LENGTH)
      throw new WireError(JsonRpcCode.InvalidParams, messages.resourceUriTooLong(uri.length, MAX_URI_LENGTH));
    const how = { rctx, what: `resource "${uri}"`, kind: 'resource', label: `Resource "${uri}"` } as const;
    let result: unknown;
    const catalog = this.#catalog;
    const resource = catalog.resources.get(uri);
    if (resource !== undefined && !catalog.hides(resource, rctx.extra))
      result = await this.#call('resources/read', resource, how, async (ctxOf, extra) =>
        resource.read(uri, (await ctxOf()) as Ctx, extra),
      );
    else if (resource === undefined) {
      for (const template of catalog.templates) {
        const vars = template.compiled.match(uri);
        if (vars === undefined) continue;
        if (catalog.hides(template, rctx.extra)) break;
        result = await this.#call('resources/read', template, how, async (ctxOf, extra) =>
          template.read(uri, vars, (await ctxOf()) as Ctx, extra),
        );
        break;
      }
    }
    // A template whose handler found nothing reads as not found.
    if (result !== undefined) return result as ReadResourceResult;
    const view = this.#catalog.view(rctx.extra);
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
    const target = completionTarget(this.#catalog, { ref, argument, context }, contextOf(request));
    const { completer, value, args, how } = target;
    return this.#call('completion/complete', target.item, how, async (ctxOf, extra) => {
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
      logHandlerError(this.#core.log, 'handler threw', logFields(label, extra), {
        error,
        aborted: extra.signal?.aborted === true,
      }),
    );
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
