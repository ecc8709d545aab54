import type { ToolExtra } from '../builder/types.js';
import type { ContentPipeline } from './ContentPipeline.js';

/** One request handler as the SDK adapter installs it: `(request, sdkContext) => result`. */
export type MethodHandler = (request: any, ctx: unknown) => unknown;

/**
 * The prompt and resource methods a server should answer, bound to `content`: prompts only when there
 * is a prompt, resources only when there is a resource or template. `extraOf` turns the SDK's handler
 * context into the framework's {@link ToolExtra}.
 */
export function contentHandlers<Ctx>(content: ContentPipeline<Ctx>, extraOf: (ctx: unknown) => ToolExtra): Array<readonly [string, MethodHandler]> {
  const handlers: Array<readonly [string, MethodHandler]> = [];
  if (content.hasPrompts) {
    handlers.push(['prompts/list', () => content.listPrompts()]);
    handlers.push(['prompts/get', (request, ctx) => content.getPrompt(request?.params?.name, request?.params?.arguments, extraOf(ctx))]);
  }
  if (content.hasResources) {
    handlers.push(['resources/list', (_request, ctx) => content.listResources(extraOf(ctx))]);
    handlers.push(['resources/templates/list', () => content.listResourceTemplates()]);
    handlers.push(['resources/read', (request, ctx) => content.readResource(request?.params?.uri, extraOf(ctx))]);
  }
  return handlers;
}
