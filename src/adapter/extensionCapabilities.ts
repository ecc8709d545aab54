import { SKILLS_EXTENSION_ID } from '../skills/skillsWire.js';
import type { ProtocolEra } from '../protocol/types.js';
import type { FusionRuntime } from '../runtime/FusionRuntime.js';
import { taskCapabilities } from './installTasks.js';

/**
 * The capabilities of the extensions a v2 server serves for `runtime` in `era`: tasks when a tool supports
 * them, skills (SEP-2640, with `directoryRead`: skill folders are listed by `resources/directory/read`; with the
 * base `resources` capability skill files are read through) when there is at least one skill. Both may share
 * `extensions`.
 */
export function extensionCapabilities(
  runtime: FusionRuntime<any>,
  era: ProtocolEra | undefined,
): Record<string, unknown> {
  const tasks: { extensions?: Record<string, unknown> } = runtime.tasks !== undefined ? taskCapabilities(era) : {};
  if (runtime.skills === undefined) return tasks;
  return {
    ...tasks,
    ...(runtime.content?.hasResources === true ? {} : { resources: { listChanged: true } }),
    extensions: { ...tasks.extensions, [SKILLS_EXTENSION_ID]: { directoryRead: true } },
  };
}
