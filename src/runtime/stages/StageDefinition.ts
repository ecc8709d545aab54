import type { FusionTool } from '../../protocol/types.js';
import type { CallStage, ToolCall } from './callStages.js';
import type { ContentStage, ContentTarget } from './contentCall.js';
import type { RuntimeCore } from '../core/RuntimeCore.js';
import type { ToolParts } from '../core/ToolParts.js';
import type { RateLimiter } from '../core/RateLimiter.js';

/** The runtime's parts a content stage is built from: the shared core and the rate limits. */
export interface ContentStageParts {
  readonly core: RuntimeCore;
  readonly limits: RateLimiter | undefined;
}

/** The runtime's parts a tool stage is built from: the shared core, the tool parts, and the unknown-tool refusal. */
export interface StageParts extends ToolParts, ContentStageParts {
  /** Refuses a call as if its tool did not exist, naming what the caller can call now (a disabled tool). */
  readonly hidden: (call: ToolCall) => Promise<never>;
}

/** How a stage joins one kind of request path: whether an item's path has it, and the stage built for that item. */
export interface StageUse<Item, S, Parts> {
  readonly appliesTo: (item: Item, parts: Parts) => boolean;
  readonly build: (item: Item, parts: Parts) => S;
}

/**
 * One concern of the request paths (scopes, rate limits, drain, the workflow gate, …), in a file of its own
 * under `runtime/stages/`: its name, the paths it joins (`tools` for `tools/call`; `content` for
 * `prompts/get`, `resources/read` and `completion/complete`) and how it is built for one item from the
 * runtime's parts. Its place in the order is given by `stageList.ts` alone.
 * @see docs/contributing.md#where-a-new-stage-goes
 */
export interface StageDefinition<Name extends string = string> {
  readonly name: Name;
  readonly tools?: StageUse<FusionTool, CallStage, StageParts>;
  readonly content?: StageUse<ContentTarget, ContentStage, ContentStageParts>;
}

/** Declares a stage, keeping its name as a literal type (the list's names become `StageName`). */
export function defineStage<const Name extends string>(definition: StageDefinition<Name>): StageDefinition<Name> {
  return definition;
}
