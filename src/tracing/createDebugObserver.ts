import type { DebugEvent } from './types.js';

/**
 * An observer for the `debug` attach option that reports every list, call, refusal, workflow transition,
 * State Sync invalidation, `list_changed`, task status change, warning and swallowed error as one readable line, to `sink`
 * (`console.debug` by default). `debug: true` still logs raw JSON to stderr.
 * @example
 * registry.attachToServer(server, { stateSync, fsm: checkout, debug: createDebugObserver() });
 * // [mcp-fusion] call cart.add_item ok 2ms session=4f1c…
 * // [mcp-fusion] transition checkout: empty → has_items on ADD_ITEM by cart.add_item session=4f1c…
 * @see docs/state-sync.md
 */
export function createDebugObserver(
  sink: (line: string) => void = (line) => console.debug(line),
): (event: DebugEvent) => void {
  // A `result` repeats the `call` line with texts and arguments, a task's progress comes often: left to
  // observers that ask for them.
  return (event) =>
    event.type !== 'result' && event.type !== 'task_progress' && sink(`[mcp-fusion] ${formatDebugEvent(event)}`);
}

/** One line for one debug event (without the `[mcp-fusion]` prefix). */
export function formatDebugEvent(event: DebugEvent): string {
  switch (event.type) {
    case 'call':
      return `call ${event.tool} ${event.ok ? 'ok' : 'error'} ${Math.round(event.durationMs)}ms${who(event.sessionId)}`;
    case 'list':
      return `tools/list ${event.count} tool${event.count === 1 ? '' : 's'}${who(event.sessionId)}`;
    case 'refusal':
      return event.reason === 'gate'
        ? `refused ${event.tool}: hidden in workflow state "${event.state ?? '?'}"${who(event.sessionId, event.workflowKey)}`
        : `refused ${event.tool}: too many concurrent calls${who(event.sessionId, event.workflowKey)}`;
    case 'transition':
      return `transition ${event.machine}: ${event.from} → ${event.to} on ${event.event} by ${event.tool}${who(event.sessionId, event.workflowKey)}`;
    case 'invalidation':
      return `invalidated ${event.patterns.join(', ')} by ${event.causedBy}`;
    case 'list_changed':
      return `tools/list_changed (${event.reason === 'transition' ? 'workflow transition' : 'tools enabled or disabled'})${who(event.sessionId)}`;
    case 'result':
      return `result ${event.tool} ${event.refused ? 'refused' : event.ok ? 'ok' : 'error'} ${Math.round(event.durationMs)}ms${who(event.sessionId, event.workflowKey)}`;
    case 'task':
      return `task ${event.taskId} ${event.tool} ${event.status}${event.statusMessage !== undefined && event.status !== 'completed' ? `: ${event.statusMessage}` : ''}`;
    case 'task_progress':
      return `task ${event.taskId} ${event.tool} progress: ${event.progress}`;
    case 'warning':
      return `warning ${event.message}`;
    case 'error':
      return `error ${event.message}: ${event.error instanceof Error ? event.error.message : String(event.error)}`;
  }
}

function who(sessionId: string | undefined, workflowKey?: string): string {
  return `${sessionId !== undefined ? ` session=${sessionId}` : ''}${workflowKey !== undefined ? ` workflow=${workflowKey}` : ''}`;
}
