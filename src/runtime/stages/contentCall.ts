import type { HandlerExtra } from '../../protocol/types.js';
import type { ScopedItem } from '../../auth/ScopeFilter.js';
import type { RequestContext } from '../../surface/types.js';
import type { Stage } from './callStages.js';

/** The methods of prompts and resources whose requests run a handler, each through its item's stage list. */
export type ContentMethod = 'prompts/get' | 'resources/read' | 'completion/complete';

/** What a content request addresses: its method and its prompt, resource or template (the stages are compiled per target). */
export interface ContentTarget {
  readonly method: ContentMethod;
  /** The prompt, fixed resource or template (its `requiredScopes`). */
  readonly item: ScopedItem;
}

/** One `prompts/get`, `resources/read` or `completion/complete` as it travels through the stages of its target. */
export interface ContentCall {
  readonly target: ContentTarget;
  readonly rctx: RequestContext;
  /** The target in refusals: `prompt "review"`, `resource "vault://7"`. */
  readonly what: string;
  /** What the caller may continue without when refused. */
  readonly kind: 'prompt' | 'resource';
  /** The handler in failures: `Prompt "review"`, `Completion of "user" of prompt "review"`. */
  readonly label: string;
  /** The handler, run last (under its deadline, with the context factory's context). */
  readonly run: (ctx: any, extra: HandlerExtra) => Promise<unknown>;
}

/** A stage of the content path; refusals throw a `WireError` (prompts and resources have no `isError` result). */
export type ContentStage = Stage<ContentCall, unknown>;
