import { concurrencyStage } from './concurrency.js';
import { rateLimitStage } from './rateLimit.js';
import { scopesStage } from './scopes.js';
import { stateSyncStage } from './stateSync.js';
import { switchStage } from './switch.js';
import { trackStage } from './track.js';
import { validateStage } from './validate.js';
import { workflowStage } from './workflow.js';

/**
 * Every stage of the request paths, in the order they run (the handler runs after the last). The only
 * place that knows the order: a tool's path keeps the stages whose `tools.appliesTo` holds for it, a
 * prompt's or resource's those whose `content.appliesTo` does.
 * @see docs/contributing.md#where-a-new-stage-goes
 */
export const stageList = [
  switchStage,
  scopesStage,
  concurrencyStage,
  trackStage,
  workflowStage,
  validateStage,
  // After validation (and the workflow gate, which strips a handle argument first): a call refused for
  // its arguments or its state spends no rate budget.
  rateLimitStage,
  stateSyncStage,
] as const;

/** The name of a stage of {@link stageList}. */
export type StageName = (typeof stageList)[number]['name'];
