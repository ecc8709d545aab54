import { DefinitionError } from '../errors/FusionError.js';
import type { TaskDeclaration, TaskMode } from '../tasks/types.js';

/** What `.task()` takes; every field has a default. */
export interface TaskOptions {
  /** `optional` (default): a task when the client can take one, a plain call otherwise. `required`: only as a task. */
  mode?: TaskMode;
  /** How long the task and its result are kept, from creation (default 3,600,000 = 1 hour). */
  ttlMs?: number;
  /** The polling interval suggested to clients (default 1,000 ms). */
  pollIntervalMs?: number;
}

/** Checks `.task(options)` of `owner` (`Tool "x"`) and returns the frozen declaration. */
export function taskDeclaration(options: TaskOptions | undefined, owner: string): TaskDeclaration {
  const mode = options?.mode ?? 'optional';
  if (mode !== 'optional' && mode !== 'required') {
    throw new DefinitionError(
      'TOOL_TASK',
      `${owner} has .task({ mode: ${JSON.stringify(mode)} }); use "optional" or "required".`,
      { owner },
    );
  }
  const ms = (field: 'ttlMs' | 'pollIntervalMs', fallback: number): number => {
    const value = options?.[field] ?? fallback;
    if (!Number.isInteger(value) || value <= 0) {
      throw new DefinitionError(
        'TOOL_TASK',
        `${owner} has .task({ ${field}: ${String(value)} }); give a positive whole number of milliseconds.`,
        { owner },
      );
    }
    return value;
  };
  return Object.freeze({ mode, ttlMs: ms('ttlMs', 3_600_000), pollIntervalMs: ms('pollIntervalMs', 1_000) });
}
