import type { HandlerExtra } from '../../protocol/types.js';
import type { WirePrompt, WireResource, WireResourceTemplate } from '../../domain/types.js';
import type { FusionPrompt } from '../../prompts/types.js';
import type { FusionResource, FusionResourceTemplate } from '../../resources/types.js';
import type { RequestContext } from '../../surface/types.js';

/** The frozen lists one scope set may see. */
export interface ContentView {
  readonly prompts: PromptListResult;
  readonly resources: ResourceListResult;
  readonly templates: ResourceTemplateListResult;
  readonly listers: readonly FusionResourceTemplate<any>[];
}

/** What a `ContentRuntime` serves: the registry's content at the time it was built. */
export interface ContentSource<Ctx> {
  readonly prompts: readonly FusionPrompt<Ctx>[];
  readonly resources: readonly FusionResource<Ctx>[];
  readonly resourceTemplates: readonly FusionResourceTemplate<Ctx>[];
}

/** `prompts/list` result. */
export interface PromptListResult {
  prompts: WirePrompt[];
  [key: string]: unknown;
}

/** `resources/list` result. */
export interface ResourceListResult {
  resources: WireResource[];
  [key: string]: unknown;
}

/** `resources/templates/list` result. */
export interface ResourceTemplateListResult {
  resourceTemplates: WireResourceTemplate[];
  [key: string]: unknown;
}

/** A request's context, or (for direct callers) only its extra. */
export type ContextOrExtra = RequestContext | HandlerExtra;

/** A request's context from what a caller passed: the context itself, or a bare extra (no session key). */
export function contextOf(given: ContextOrExtra): RequestContext {
  const rctx = given as Partial<RequestContext>;
  return typeof rctx.extra === 'object' && rctx.extra !== null
    ? (given as RequestContext)
    : { sessionKey: undefined, extra: given as HandlerExtra };
}
