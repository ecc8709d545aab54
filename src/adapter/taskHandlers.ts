import type { Ticket } from '../runtime/core/CallTracker.js';
import { z } from 'zod';
import { JsonRpcCode, WireError } from '../errors/WireError.js';
import type { ProtocolEra } from '../protocol/types.js';
import { requestPrincipal } from '../principal/requestPrincipal.js';
import { missingScopes } from '../auth/checkScopes.js';
import { ScopeFilter } from '../auth/ScopeFilter.js';
import { insufficientScopeMeta } from '../auth/insufficientScope.js';
import { messages } from '../protocol/messages.js';
import type { TaskService } from '../runtime/tasks/TaskService.js';
import type { ResolvedCall } from '../runtime/stages/pickAction.js';
import type { RequestContext } from '../surface/types.js';
import { taskTexts } from '../tasks/taskTexts.js';
import { isTerminal, type TaskRecord } from '../tasks/types.js';
import { TaskCursorError } from '../tasks/taskCursor.js';
import { modernTask, legacyTask, taskPayload, MISSING_CAPABILITY, TASKS_EXTENSION } from './taskWire.js';

/** The params of a `tools/call` as the task dispatch reads them. */
interface CallParams {
  name: string;
  arguments?: Record<string, unknown>;
  task?: unknown;
}

/**
 * `tools/call` with tasks: a task-supporting tool runs as a task when the client can take one (modern: the
 * request declares the `io.modelcontextprotocol/tasks` extension; legacy: `params.task` is set), and as a
 * plain call otherwise, except that a `required` tool then gets the revision's error. Other tools go
 * straight to `plain`. `resolved` is the call's route and action, resolved once (by the front or `tools/call`); `ticket` the request's count
 * in flight, which the task's run holds on to.
 */
export function taskCall(
  service: TaskService,
  era: ProtocolEra | undefined,
  created: (record: TaskRecord) => void = () => {},
) {
  return async (
    params: CallParams,
    rctx: RequestContext,
    plain: () => Promise<unknown>,
    resolved: Omit<ResolvedCall, 'name'>,
    ticket?: Ticket,
  ): Promise<unknown> => {
    const declaration = service.declarationOf(resolved.route);
    if (declaration === undefined) return plain();
    if (era === 'modern') {
      if (!declaresExtension(rctx.extra.clientCapabilities)) {
        if (declaration.mode === 'required')
          throw new WireError(MISSING_CAPABILITY, taskTexts.requiresTask(params.name), {
            requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } },
          });
        return plain();
      }
      const started = await service.start(resolved, params.name, params.arguments, rctx, { immediate: true, ticket });
      if (started.kind === 'result') return started.result;
      created(started.record);
      rctx.trace?.task?.(started.record.id, started.record.status);
      return { resultType: 'task', ...modernTask(started.record) };
    }
    const task = params.task;
    if (typeof task !== 'object' || task === null) {
      if (declaration.mode === 'required')
        throw new WireError(JsonRpcCode.MethodNotFound, taskTexts.requiresLegacyTask(params.name));
      return plain();
    }
    const ttl = (task as { ttl?: unknown }).ttl;
    const started = await service.start(resolved, params.name, params.arguments, rctx, {
      immediate: false,
      ttlMs: typeof ttl === 'number' && ttl > 0 ? ttl : undefined,
      ticket,
    });
    // `content: []` beside `task`: the SDK checks every 2025 tools/call result against CallToolResult.
    if (started.kind === 'result') return started.result;
    created(started.record);
    rctx.trace?.task?.(started.record.id, started.record.status);
    return { content: [], task: legacyTask(started.record) };
  };
}

/** True when a request's capabilities declare the tasks extension. */
export function declaresExtension(capabilities: Readonly<Record<string, unknown>> | undefined): boolean {
  const extensions = capabilities?.extensions;
  return typeof extensions === 'object' && extensions !== null && TASKS_EXTENSION in extensions;
}

/** A task method's handler: its params and the caller's request context. */
export type TaskHandler = (
  params: { taskId: string; inputResponses?: Record<string, unknown>; cursor?: unknown },
  rctx: RequestContext,
) => Promise<Record<string, unknown>>;

/** The task methods of an era, era-neutral handlers over the service (the attachment installs them). */
export function taskMethods(service: TaskService, era: ProtocolEra | undefined): Array<readonly [string, TaskHandler]> {
  const owner = (rctx: RequestContext): string => requestPrincipal(rctx).key;
  const found = async (record: Promise<TaskRecord | undefined>, id: string, rctx: RequestContext) => {
    const task = await record;
    if (task === undefined) throw new WireError(JsonRpcCode.InvalidParams, taskTexts.notFound(id));
    authorizeTask(task, rctx);
    return task;
  };
  if (era === 'modern') {
    const gate = (rctx: RequestContext): void => {
      if (!declaresExtension(rctx.extra.clientCapabilities)) {
        throw new WireError(
          MISSING_CAPABILITY,
          `Missing required client capability: declare the ${TASKS_EXTENSION} extension to use the task methods.`,
          { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
        );
      }
    };
    return [
      ['tasks/list', async (p, rctx) => (gate(rctx), listed(service, owner(rctx), p.cursor, rctx, modernTask))],
      [
        'tasks/get',
        async (p, rctx) => (
          gate(rctx),
          modernTask(await found(service.get(p.taskId, owner(rctx)), p.taskId, rctx), true)
        ),
      ],
      // The SDK lifts `inputResponses` out of the params into the request's context (the extra).
      [
        'tasks/update',
        async (p, rctx) => {
          gate(rctx);
          await found(service.get(p.taskId, owner(rctx)), p.taskId, rctx);
          const answers = p.inputResponses ?? rctx.extra.inputResponses ?? {};
          await found(service.update(p.taskId, owner(rctx), answers), p.taskId, rctx);
          return {};
        },
      ],
      [
        'tasks/cancel',
        async (p, rctx) => {
          gate(rctx);
          await found(service.get(p.taskId, owner(rctx)), p.taskId, rctx);
          await found(service.cancel(p.taskId, owner(rctx), rctx.extra.signal), p.taskId, rctx);
          return {};
        },
      ],
    ];
  }
  return [
    ['tasks/get', async (p, rctx) => legacyTask(await found(service.get(p.taskId, owner(rctx)), p.taskId, rctx))],
    ['tasks/list', (p, rctx) => listed(service, owner(rctx), p.cursor, rctx, legacyTask)],
    [
      'tasks/result',
      async (p, rctx) => {
        // Authorized before the wait: a caller who may not read the task must not hold a wait on it.
        await found(service.get(p.taskId, owner(rctx)), p.taskId, rctx);
        const task = await found(service.settled(p.taskId, owner(rctx), rctx.extra.signal), p.taskId, rctx);
        return taskPayload(task);
      },
    ],
    [
      'tasks/cancel',
      async (p, rctx) => {
        const before = await found(service.get(p.taskId, owner(rctx)), p.taskId, rctx);
        if (isTerminal(before.status))
          throw new WireError(
            JsonRpcCode.InvalidParams,
            `Cannot cancel task "${p.taskId}": it is already ${before.status}.`,
          );
        return legacyTask(await found(service.cancel(p.taskId, owner(rctx), rctx.extra.signal), p.taskId, rctx));
      },
    ],
  ];
}

/**
 * `tasks/list` in either era: one page of `owner`'s tasks shown by `show`. A task whose scopes the caller's
 * token lacks is not theirs to read: it is left out.
 */
async function listed(
  service: TaskService,
  owner: string,
  cursor: unknown,
  rctx: RequestContext,
  show: (record: TaskRecord) => Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const page = await listPage(service, owner, cursor);
  const tasks = page.records.filter((task) => mayRead(task, rctx)).map((task) => show(task));
  return page.nextCursor === undefined ? { tasks } : { tasks, nextCursor: page.nextCursor };
}

const tables = new WeakMap<TaskService, Map<string, ReadonlyMap<string, TaskHandler>>>();

/** The handler of task method `method` in `era` (undefined when the era has no such method); built once per service. */
export function taskHandlerOf(
  service: TaskService,
  era: ProtocolEra | undefined,
  method: string,
): TaskHandler | undefined {
  let byEra = tables.get(service);
  if (byEra === undefined) tables.set(service, (byEra = new Map()));
  const key = era ?? 'any';
  let table = byEra.get(key);
  if (table === undefined) byEra.set(key, (table = new Map(taskMethods(service, era))));
  return table.get(method);
}

/** One page of `owner`'s tasks; a cursor that is not a string, or not one issued to `owner`, is -32602. */
async function listPage(service: TaskService, owner: string, cursor: unknown) {
  if (cursor !== undefined && typeof cursor !== 'string')
    throw new WireError(JsonRpcCode.InvalidParams, 'Invalid tasks/list cursor: it must be a string from nextCursor.');
  try {
    return await service.list(owner, cursor);
  } catch (error) {
    if (error instanceof TaskCursorError) throw new WireError(JsonRpcCode.InvalidParams, error.message);
    throw error;
  }
}

/** True when the caller's token grants every scope the task's call needed. */
function mayRead(task: TaskRecord, rctx: RequestContext): boolean {
  const required = task.requiredScopes ?? [];
  return required.length === 0 || missingScopes(required, ScopeFilter.scopesOf(rctx.extra.authInfo)).length === 0;
}

/**
 * Refuses a task whose call needed scopes the caller's token no longer grants (-32602 `insufficient_scope`,
 * the missing scopes in `data`): the same user with a narrower token cannot read, answer or cancel it.
 */
function authorizeTask(task: TaskRecord, rctx: RequestContext): void {
  const required = task.requiredScopes ?? [];
  if (required.length === 0) return;
  const missing = missingScopes(required, ScopeFilter.scopesOf(rctx.extra.authInfo));
  if (missing.length === 0) return;
  throw new WireError(
    JsonRpcCode.InvalidParams,
    messages.insufficientScope(`task "${task.id}" of "${task.tool}"`, required, missing, 'tool'),
    insufficientScopeMeta(required, missing),
  );
}

/** The params schema of a modern task method (the SDK validates custom methods with it). */
export const TASK_PARAMS = {
  params: z.looseObject({ taskId: z.string(), inputResponses: z.record(z.string(), z.unknown()).optional() }),
};

/** The params schema of modern `tasks/list` (the cursor is checked by the handler, with its own error). */
export const LIST_PARAMS = { params: z.looseObject({ cursor: z.unknown().optional() }).optional() };
