import type { RequestContext } from '../surface/types.js';

/** One request handler as the SDK adapter installs it: `(request, sdkContext) => result`. */
export type MethodHandler = (request: any, ctx: unknown) => unknown;

/**
 * The framework's {@link RequestContext} for an SDK handler context. `target` names what a multi-round-trip
 * request addresses (`prompts/get:<name>`, `resources/read:<uri>`), so that its `requestState` is opened
 * for that target only; such requests may resolve asynchronously (the state is verified first).
 */
export type ContextOf = (ctx: unknown, target?: string) => RequestContext | Promise<RequestContext>;
