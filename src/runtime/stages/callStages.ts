import type { FusionTool, ToolResponse } from '../../protocol/types.js';
import type { CallExtra } from '../core/CallExtra.js';
import type { Ticket } from '../core/CallTracker.js';
import type { Route } from '../../surface/compileSurface.js';
import type { RequestContext } from '../../surface/types.js';

/** One `tools/call` as it travels through the stages of its tool. */
export interface ToolCall {
  /** The route the called name resolved to (its exposed name, and the discriminator of a grouped tool). */
  readonly route: Route;
  /** The tool (or the grouped tool's action) the call addresses. */
  readonly tool: FusionTool<any>;
  /** The arguments without a grouped tool's discriminator (validation replaces them with the parsed ones). */
  args: Record<string, unknown>;
  readonly rctx: RequestContext;
  /** What the handler receives, in its one shape (the workflow stage sets the workflow instance on it). */
  readonly extra: CallExtra;
  /** When an observer is set: the stages' entry times (the dev console shows where a call spent its time). */
  readonly marks?: Array<string | number> | undefined;
  /** The call's entry in the one count of requests in flight (`CallTracker`), held while it runs. */
  readonly ticket: Ticket;
}

/** Runs the rest of the stages. */
export type NextStage = (call: ToolCall) => Promise<ToolResponse>;

/**
 * One concern of the call path (scopes, rate limits, concurrency, workflow gate, validation, State Sync):
 * it answers the call itself (a refusal) or hands it, possibly changed, to `next` and may rewrite the result.
 */
export type CallStage = (call: ToolCall, next: NextStage) => Promise<ToolResponse>;

/** A stage of any request path: `C` is what travels (a tool call, a content request), `R` its answer. */
export type Stage<C, R> = (call: C, next: (call: C) => Promise<R>) => Promise<R>;

/**
 * Composes stages into one function, once per tool (or prompt, resource): `stages[0]` runs first and `last`
 * (the handler) at the end. Stages an item does not need are simply absent, so they cost nothing at call time.
 */
export function composeStages<C = ToolCall, R = ToolResponse>(
  stages: ReadonlyArray<Stage<C, R>>,
  last: (call: C) => Promise<R>,
): (call: C) => Promise<R> {
  let run = last;
  for (let i = stages.length - 1; i >= 0; i--) {
    const stage = stages[i]!;
    const next = run;
    run = (call) => stage(call, next);
  }
  return run;
}
