import type { InvalidationLog } from '../../state-sync/InvalidationLog.js';
import type { StateSyncLayer } from '../../state-sync/StateSyncLayer.js';
import type { Surface } from '../../surface/compileSurface.js';
import type { ToolSwitch } from '../../surface/ToolSwitch.js';
import type { Visibility } from '../../surface/Visibility.js';
import type { WorkflowRuntime } from '../../workflow/WorkflowRuntime.js';
import type { RateLimiter } from './RateLimiter.js';

/** What the tool path of one runtime is built from, besides its {@link RuntimeCore}: each part once. */
export interface ToolParts {
  readonly surface: Surface;
  /** Run-time enable/disable of the registry's tools. */
  readonly toolSwitch: ToolSwitch;
  /** State Sync, when a policy or a tool's `.invalidates()` asks for it. */
  readonly sync: StateSyncLayer | undefined;
  /** The last invalidation of each pattern, and who hears them. */
  readonly invalidations: InvalidationLog;
  /** The workflow gate at run time, when the `fsm` option is set. */
  readonly workflow: WorkflowRuntime | undefined;
  /** What each caller may list and call: one frozen list per (scopes, workflow state, switch version). */
  readonly visibility: Visibility;
  /** Rate limits, when the options or a tool set one. */
  readonly limits: RateLimiter | undefined;
}
