import type { Ticket } from '../runtime/core/CallTracker.js';
import type { RequestContext } from '../surface/types.js';

/** One request handler as the SDK adapter installs it: `(request, sdkContext) => result`. */
/**
 * An installed method's handler. The one wrapper (`wireRuntime`'s `served`) hands the handler it wraps the
 * request's `ticket` in the count of requests in flight (a `tools/call` hands it on to its run).
 */
export type MethodHandler = (request: any, ctx: unknown, ticket?: Ticket) => unknown;

/**
 * The framework's {@link RequestContext} for an SDK handler context. `target` names what a multi-round-trip
 * request addresses (`prompts/get:<name>`, `resources/read:<uri>`), so that its `requestState` is opened
 * for that target only; such requests may resolve asynchronously (the state is verified first).
 */
export type ContextOf = (ctx: unknown, target?: string) => RequestContext | Promise<RequestContext>;
