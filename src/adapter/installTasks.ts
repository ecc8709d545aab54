import type { ProtocolEra } from '../protocol/types.js';
import type { TaskService } from '../runtime/tasks/TaskService.js';
import { taskCall } from './taskHandlers.js';
import { legacyTask, TASKS_EXTENSION, TASKS_LIST_EXTENSION } from './taskWire.js';

/** The part of a v2 SDK server the task dispatch needs. */
interface TaskServer {
  notification?(notification: unknown): Promise<void>;
}

/**
 * The capabilities that announce tasks: the 2026-07-28 extension (its settings must stay `{}`: the official
 * Tasks client ignores a server whose settings are not empty) beside {@link TASKS_LIST_EXTENSION}, or the
 * 2025-11-25 `tasks` capability.
 */
export function taskCapabilities(era: ProtocolEra | undefined): Record<string, unknown> {
  if (era === 'modern') return { extensions: { [TASKS_EXTENSION]: {}, [TASKS_LIST_EXTENSION]: {} } };
  return { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } };
}

/**
 * The `tools/call` task dispatch of one v2 server (the task methods themselves are in `adapter/methods/`). On
 * a legacy connection, tasks started through it report each status change with `notifications/tasks/status`.
 */
export function taskDispatch(
  low: TaskServer,
  service: TaskService,
  era: ProtocolEra | undefined,
): { dispatch: ReturnType<typeof taskCall>; stop(): void } {
  if (era === 'modern') return { dispatch: taskCall(service, era), stop: () => {} };
  const mine = new Set<string>();
  const stop = service.onStatus((record) => {
    if (!mine.has(record.id)) return;
    if (record.status === 'completed' || record.status === 'failed' || record.status === 'cancelled')
      mine.delete(record.id);
    low.notification?.({ method: 'notifications/tasks/status', params: legacyTask(record) }).catch(() => {});
  });
  return { dispatch: taskCall(service, era, (record) => mine.add(record.id)), stop };
}
