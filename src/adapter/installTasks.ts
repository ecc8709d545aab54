import type { ProtocolEra } from '../protocol/types.js';
import type { TaskService } from '../runtime/TaskService.js';
import type { RequestContext } from '../surface/types.js';
import { LIST_PARAMS, TASK_PARAMS, taskCall, taskMethods } from './taskHandlers.js';
import { legacyTask, MODERN_TASKS_LIST, TASKS_EXTENSION, TASKS_LIST_EXTENSION } from './taskWire.js';

/** The part of a v2 SDK server the task methods need. */
interface TaskServer {
  setRequestHandler(method: string, schemasOrHandler: unknown, handler?: unknown): void;
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
 * Installs the task methods of `era` on a v2 server (modern ones with their params schema, as the SDK wants
 * for extension methods) and returns the `tools/call` dispatch. On a
 * legacy connection, tasks started through it report each status change with `notifications/tasks/status`.
 */
export function installTasks(
  low: TaskServer,
  service: TaskService,
  era: ProtocolEra | undefined,
  scopeOf: (ctx: unknown) => RequestContext,
): { dispatch: ReturnType<typeof taskCall>; stop(): void } {
  for (const [method, handler] of taskMethods(service, era)) {
    const list = method === 'tasks/list';
    if (era === 'modern')
      low.setRequestHandler(
        list ? MODERN_TASKS_LIST : method,
        list ? LIST_PARAMS : TASK_PARAMS,
        (params: any, ctx: unknown) => handler(params ?? {}, scopeOf(ctx)),
      );
    else low.setRequestHandler(method, (request: any, ctx: unknown) => handler(request?.params ?? {}, scopeOf(ctx)));
  }
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
