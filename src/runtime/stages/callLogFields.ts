import { WireError } from '../../errors/WireError.js';
import type { LogFields } from '../../logging/types.js';
import type { HandlerExtra } from '../../protocol/types.js';
import type { OperatorLog } from '../../logging/OperatorLog.js';
import { requestPrincipal } from '../../principal/requestPrincipal.js';
import type { ToolCall } from './callStages.js';
import type { RequestContext } from '../../surface/types.js';

/**
 * The fields of a tool call's log record: the tool as the agent called it and the action of a grouped tool,
 * the session (legacy) or workflow instance, the principal's key (never its token), the trace id when
 * traced, the duration in ms, and the arguments when `logArguments` is on.
 */
export function callLogFields(call: ToolCall, durationMs: number | undefined, log: OperatorLog): LogFields {
  const { route, tool, rctx } = call;
  return {
    tool: route.exposed,
    action: route.kind === 'grouped' ? actionOf(route.actions, tool) : undefined,
    session: rctx.sessionKey,
    workflow: call.extra.workflow?.key,
    principal: requestPrincipal(rctx).key,
    traceId: rctx.trace?.traceId,
    durationMs: durationMs === undefined ? undefined : Math.round(durationMs * 100) / 100,
    ...log.argumentsField(call.args),
  };
}

function actionOf(actions: ReadonlyMap<string, unknown>, tool: unknown): string | undefined {
  for (const [key, t] of actions) if (t === tool) return key;
  return undefined;
}

/** A budget or rate-limit refusal of `call`, at `warn`, throttled per reason and tool (a flood cannot flood the log). */
export function logRefusal(log: OperatorLog, call: ToolCall, reason: 'rate_limited' | 'too_many_calls'): void {
  if (!log.enabled('warn')) return;
  const message =
    reason === 'rate_limited' ? 'rate limit refused a tool call' : 'concurrency budget refused a tool call';
  log.refusal(`${reason}:${call.tool.name}`, message, { ...callLogFields(call, undefined, log), reason });
}

/** The fields of a `tools/list` record: the session (legacy), the principal and the trace id. */
export function listLogFields(rctx: RequestContext): LogFields {
  return { session: rctx.sessionKey, principal: requestPrincipal(rctx).key, traceId: rctx.trace?.traceId };
}

/**
 * Logs a rejected request and rethrows: a rejection is a failure of mcp-fusion's own parts (a store, the
 * gate), since handler errors are results by then; a {@link WireError} is a protocol answer, not logged.
 */
export function rethrowLogged(log: OperatorLog, message: string, fields: LogFields, error: unknown): never {
  if (!(error instanceof WireError)) log.error(message, fields, error);
  throw error;
}

/** A failed handler's record: what failed, the session and the principal (never the token). */
export function logFields(label: string, extra: HandlerExtra): Record<string, unknown> {
  return { handler: label, session: extra.sessionId, principal: requestPrincipal({ extra }).key };
}
