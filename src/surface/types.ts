import type { HandlerExtra } from '../protocol/types.js';
import type { RequestTrace } from '../tracing/types.js';

/**
 * What the SDK adapter tells the runtime about one request, of any method and either era: whose session
 * it belongs to, the handler's `extra`, and its span. (Not OAuth scopes: those are `extra.authInfo.scopes`.)
 */
export interface RequestContext {
  /**
   * Key of the request's session: the legacy `Mcp-Session-Id`, or the connection's own id over stdio and
   * in-memory transports; it keys the session's workflow state, its `extra.session` data and an anonymous
   * caller's principal. Undefined on modern (2026-07-28) requests, which have no session. (Not the FSM's
   * `stateKey()` of a state value.)
   */
  readonly sessionKey: string | undefined;
  readonly extra: HandlerExtra;
  /** The span of this request, when tracing is on: FSM transitions and refusals become its events. */
  readonly trace?: RequestTrace | undefined;
}

/** `tools/list` result as the pipeline returns it. */
export interface ToolListResult {
  tools: Array<Record<string, unknown>>;
  [key: string]: unknown;
}

/** Which tools an attachment exposes. A tool passes when it has every tag of `tags` and none of `exclude`. */
export interface ToolFilter {
  tags?: string[];
  exclude?: string[];
}

/** How names are rendered on the wire; policies, tags and bindings always use the declared name. */
export type NameStyle = 'dots' | 'underscores' | ((declaredName: string) => string);
