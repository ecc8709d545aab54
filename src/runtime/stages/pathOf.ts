import type { FusionTool } from '../../protocol/types.js';
import type { CallStage } from './callStages.js';
import type { ContentStage, ContentTarget } from './contentCall.js';
import type { ContentStageParts, StageDefinition, StageParts } from './StageDefinition.js';

/** The named stages of `tool`'s call path, in the order of `stages`: those that apply to it, each built once. */
export function toolPath<N extends string>(
  stages: readonly StageDefinition<N>[],
  tool: FusionTool,
  parts: StageParts,
): Array<readonly [N, CallStage]> {
  const path: Array<readonly [N, CallStage]> = [];
  for (const { name, tools } of stages) {
    if (tools?.appliesTo(tool, parts) === true) path.push([name, tools.build(tool, parts)]);
  }
  return path;
}

/** The named stages of a prompt's, resource's or completion's path, in the order of `stages`. */
export function contentPath<N extends string>(
  stages: readonly StageDefinition<N>[],
  target: ContentTarget,
  parts: ContentStageParts,
): Array<readonly [N, ContentStage]> {
  const path: Array<readonly [N, ContentStage]> = [];
  for (const { name, content } of stages) {
    if (content?.appliesTo(target, parts) === true) path.push([name, content.build(target, parts)]);
  }
  return path;
}
