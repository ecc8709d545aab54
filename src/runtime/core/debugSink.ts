import type { OperatorLog } from '../../logging/OperatorLog.js';
import type { AttachOptions, DebugEvent } from './options.js';

/**
 * The observer of the `debug` option (none, stderr lines for `true`, or the function given), plus the
 * logger at level `debug` when it is enabled (warnings and errors are logged at their own levels).
 */
export function debugSink(
  debug: AttachOptions<unknown>['debug'],
  log?: OperatorLog,
): ((event: DebugEvent) => void) | undefined {
  const own = ownSink(debug);
  if (log === undefined || !log.enabled('debug')) return own;
  return (event) => {
    own?.(event);
    // A `result` carries the call's arguments and texts (the `call` record says the rest): never logged.
    if (event.type !== 'warning' && event.type !== 'error' && event.type !== 'result' && event.type !== 'task_progress')
      log.debug(event.type, { ...event, type: undefined });
  };
}

function ownSink(debug: AttachOptions<unknown>['debug']): ((event: DebugEvent) => void) | undefined {
  if (debug === undefined || debug === false) return undefined;
  // `true` prints what it always printed: a `result` carries arguments and texts, kept for observers that ask.
  if (debug === true)
    return (event) =>
      event.type !== 'result' &&
      event.type !== 'task_progress' &&
      console.error(`[mcp-fusion] ${JSON.stringify(event, (_k, v: unknown) => (v instanceof Error ? v.message : v))}`);
  return debug;
}
