import { DefinitionError } from '../errors/FusionError.js';
import type { TaskDeclaration, TaskMode, TaskOnLost } from '../tasks/types.js';

/** What `.task()` takes; every field has a default. */
export interface TaskOptions {
  /** `optional` (default): a task when the client can take one, a plain call otherwise. `required`: only as a task. */
  mode?: TaskMode;
  /** How long the task and its result are kept, from creation (default 3,600,000 = 1 hour). */
  ttlMs?: number;
  /** The polling interval suggested to clients (default 1,000 ms). */
  pollIntervalMs?: number;
  /**
   * When the instance running the task dies: `fail` (default) ends the task `failed`, saying the work may be
   * partly done; `retry` runs it again on another instance. Declare `retry` only for work that is safe to
   * repeat: its side effects are idempotent (keyed by what the arguments name, not done twice), since a lost
   * run may have done some of them. The workflow transition of a bound tool is never repeated.
   * @see docs/tasks.md#when-an-instance-dies
   */
  onLost?: TaskOnLost;
  /** Under `onLost: 'retry'`: runs in all, the first included (default 3, at most 10). */
  maxAttempts?: number;
}

/** Checks `.task(options)` of `owner` (`Tool "x"`) and returns the frozen declaration. */
export function taskDeclaration(options: TaskOptions | undefined, owner: string): TaskDeclaration {
  const mode = options?.mode ?? 'optional';
  const refuse = (message: string): never => {
    throw new DefinitionError('TOOL_TASK', `${owner} has .task(${message}`, { owner });
  };
  if (mode !== 'optional' && mode !== 'required')
    refuse(`{ mode: ${JSON.stringify(mode)} }); use "optional" or "required".`);
  const ms = (field: 'ttlMs' | 'pollIntervalMs', fallback: number): number => {
    const value = options?.[field] ?? fallback;
    if (!Number.isInteger(value) || value <= 0)
      refuse(`{ ${field}: ${String(value)} }); give a positive whole number of milliseconds.`);
    return value;
  };
  const onLost = options?.onLost ?? 'fail';
  if (onLost !== 'fail' && onLost !== 'retry') refuse(`{ onLost: ${JSON.stringify(onLost)} }); use "fail" or "retry".`);
  const maxAttempts = options?.maxAttempts ?? (onLost === 'retry' ? 3 : 1);
  if (onLost === 'fail' && options?.maxAttempts !== undefined)
    refuse(
      `{ maxAttempts: ${String(maxAttempts)} }) without onLost: "retry"; add onLost: "retry" or drop maxAttempts.`,
    );
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1 || maxAttempts > 10)
    refuse(`{ maxAttempts: ${String(maxAttempts)} }); give a whole number from 1 to 10.`);
  return Object.freeze({
    mode,
    ttlMs: ms('ttlMs', 3_600_000),
    pollIntervalMs: ms('pollIntervalMs', 1_000),
    onLost,
    maxAttempts,
  });
}
