import type { ToolExtra } from '../protocol/types.js';
import type { ContentPipeline } from '../runtime/ContentPipeline.js';

/** One request handler as the SDK adapter installs it: `(request, sdkContext) => result`. */
export type MethodHandler = (request: any, ctx: unknown) => unknown;

/**
 * The framework's {@link ToolExtra} for an SDK handler context. `target` names what a multi-round-trip
 * request addresses (`prompts/get:<name>`, `resources/read:<uri>`), so that its `requestState` is opened
 * for that target only; such requests may resolve asynchronously (the state is verified first).
 */
export type ExtraOf = (ctx: unknown, target?: string) => ToolExtra | Promise<ToolExtra>;

/**
 * The prompt and resource methods a server should answer, bound to `content`: prompts only when there
 * is a prompt, resources only when there is a resource or template, `completion/complete` only when a
 * prompt or template declares a completer.
 */
export function contentHandlers<Ctx>(content: ContentPipeline<Ctx>, extraOf: ExtraOf): Array<readonly [string, MethodHandler]> {
  const handlers: Array<readonly [string, MethodHandler]> = [];
  if (content.hasPrompts) {
    handlers.push(['prompts/list', async (_request, ctx) => content.listPrompts(await extraOf(ctx))]);
    handlers.push([
      'prompts/get',
      async (request, ctx) => content.getPrompt(request?.params?.name, request?.params?.arguments, await extraOf(ctx, `prompts/get:${String(request?.params?.name)}`)),
    ]);
  }
  if (content.hasResources) {
    handlers.push(['resources/list', async (_request, ctx) => content.listResources(await extraOf(ctx))]);
    handlers.push(['resources/templates/list', async (_request, ctx) => content.listResourceTemplates(await extraOf(ctx))]);
    handlers.push(['resources/read', async (request, ctx) => content.readResource(request?.params?.uri, await extraOf(ctx, `resources/read:${String(request?.params?.uri)}`))]);
  }
  if (content.hasCompletions) {
    handlers.push(['completion/complete', async (request, ctx) => content.complete(request?.params?.ref, request?.params?.argument, request?.params?.context, await extraOf(ctx))]);
  }
  return handlers;
}
