import type { ContentRuntime } from '../runtime/ContentRuntime.js';
import type { RequestContext } from '../surface/types.js';

/** One request handler as the SDK adapter installs it: `(request, sdkContext) => result`. */
export type MethodHandler = (request: any, ctx: unknown) => unknown;

/**
 * The framework's {@link RequestContext} for an SDK handler context. `target` names what a multi-round-trip
 * request addresses (`prompts/get:<name>`, `resources/read:<uri>`), so that its `requestState` is opened
 * for that target only; such requests may resolve asynchronously (the state is verified first).
 */
export type ContextOf = (ctx: unknown, target?: string) => RequestContext | Promise<RequestContext>;

/**
 * The prompt and resource methods a server should answer, bound to `content`: prompts only when there
 * is a prompt, resources only when there is a resource or template, `completion/complete` only when a
 * prompt or template declares a completer.
 */
export function contentHandlers<Ctx>(
  content: ContentRuntime<Ctx>,
  contextOf: ContextOf,
): Array<readonly [string, MethodHandler]> {
  const handlers: Array<readonly [string, MethodHandler]> = [];
  if (content.hasPrompts) {
    handlers.push(['prompts/list', async (_request, ctx) => content.listPrompts((await contextOf(ctx)).extra)]);
    handlers.push([
      'prompts/get',
      async (request, ctx) => {
        const { name, arguments: args } = request?.params ?? {};
        return content.getPrompt(name, args, await contextOf(ctx, `prompts/get:${String(name)}`));
      },
    ]);
  }
  if (content.hasResources) {
    handlers.push(['resources/list', async (_request, ctx) => content.listResources(await contextOf(ctx))]);
    handlers.push([
      'resources/templates/list',
      async (_request, ctx) => content.listResourceTemplates(await contextOf(ctx)),
    ]);
    handlers.push([
      'resources/read',
      async (request, ctx) =>
        content.readResource(
          request?.params?.uri,
          await contextOf(ctx, `resources/read:${String(request?.params?.uri)}`),
        ),
    ]);
  }
  if (content.hasCompletions) {
    handlers.push([
      'completion/complete',
      async (request, ctx) => {
        const params = request?.params ?? {};
        return content.complete(params.ref, params.argument, params.context, await contextOf(ctx));
      },
    ]);
  }
  return handlers;
}
