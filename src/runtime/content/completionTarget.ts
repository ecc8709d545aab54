import type { ScopedItem } from '../../auth/ScopeFilter.js';
import type { Completer } from '../../completion/types.js';
import { JsonRpcCode, WireError } from '../../errors/WireError.js';
import { contentMessages as messages } from '../../protocol/contentMessages.js';
import type { RequestContext } from '../../surface/types.js';
import type { ContentIndex } from './ContentIndex.js';
import type { ContentCall } from '../stages/contentCall.js';

/** What one `completion/complete` request completes, found in the catalog. */
export interface CompletionTarget<Ctx> {
  /** The prompt or resource whose stages the request runs through. */
  readonly item: ScopedItem;
  readonly how: Omit<ContentCall, 'target' | 'run'>;
  /** The argument's completer; undefined when it has none (no suggestions). */
  readonly completer: Completer<Ctx> | undefined;
  /** The partial value to complete. */
  readonly value: string;
  /** The other arguments already given (strings only). */
  readonly args: Record<string, string>;
}

/**
 * The target of `completion/complete`: the prompt (`ref/prompt` by name) or the template (`ref/resource` by its
 * URI template, or a fixed resource's URI) and the completer of the argument. An unknown prompt or template,
 * or a malformed request, throws -32602 naming what the caller may use instead.
 */
export function completionTarget<Ctx>(
  catalog: ContentIndex<Ctx>,
  request: { readonly ref: unknown; readonly argument: unknown; readonly context: unknown },
  rctx: RequestContext,
): CompletionTarget<Ctx> {
  const r = (request.ref ?? {}) as { type?: unknown; name?: unknown; uri?: unknown };
  const a = (request.argument ?? {}) as { name?: unknown; value?: unknown };
  if (typeof a.name !== 'string' || typeof a.value !== 'string')
    throw new WireError(JsonRpcCode.InvalidParams, messages.completionArgumentMissing());
  let item: ScopedItem;
  let completers: ReadonlyMap<string, Completer<Ctx>>;
  let how: Omit<ContentCall, 'target' | 'run'>;
  if (r.type === 'ref/prompt' && typeof r.name === 'string') {
    const prompt = catalog.prompts.get(r.name);
    if (prompt === undefined)
      throw new WireError(
        JsonRpcCode.InvalidParams,
        messages.unknownPrompt(r.name, catalog.visiblePrompts(rctx.extra)),
      );
    ({ completers } = item = prompt);
    how = {
      rctx,
      what: `prompt "${r.name}"`,
      kind: 'prompt',
      label: `Completion of "${a.name}" of prompt "${r.name}"`,
    };
  } else if (r.type === 'ref/resource' && typeof r.uri === 'string') {
    const template = catalog.templatesByUri.get(r.uri);
    const fixed = catalog.resources.get(r.uri);
    const hidden = (template ?? fixed) !== undefined && catalog.hides((template ?? fixed)!, rctx.extra);
    if ((template === undefined && fixed === undefined) || hidden) {
      const known = catalog.view(rctx.extra).templates.resourceTemplates.map((t) => t.uriTemplate);
      throw new WireError(JsonRpcCode.InvalidParams, messages.unknownCompletionResource(r.uri, known));
    }
    item = (template ?? fixed)!;
    completers = template?.completers ?? new Map();
    how = {
      rctx,
      what: `resource "${r.uri}"`,
      kind: 'resource',
      label: `Completion of "${a.name}" of resource template "${r.uri}"`,
    };
  } else {
    throw new WireError(JsonRpcCode.InvalidParams, messages.completionRefInvalid());
  }
  const given = (request.context as { arguments?: unknown } | undefined)?.arguments;
  const args: Record<string, string> = {};
  if (typeof given === 'object' && given !== null)
    for (const [k, v] of Object.entries(given)) if (typeof v === 'string') args[k] = v;
  return { item, how, completer: completers.get(a.name), value: a.value, args };
}
