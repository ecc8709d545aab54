import type { OperatorLog } from '../../logging/OperatorLog.js';
import type { LogFields } from '../../logging/types.js';

/**
 * Logs an error a handler threw, once. A handler whose run was aborted (the client cancelled the request,
 * its timeout ran out, the server shut down) stopped as asked: `debug`, no stack. Any other error is an
 * ordinary outcome the agent already reads as an `isError` result: `warn`, with its stack (`err`) only
 * when the log level is `debug`, else its name and message (`error`).
 */
export function logHandlerError(
  log: OperatorLog,
  message: string,
  fields: LogFields,
  thrown: { readonly error: unknown; readonly aborted: boolean },
): void {
  const { error, aborted } = thrown;
  if (aborted) log.debug(`${message} after its run was aborted`, { ...fields, error: errorText(error) });
  else if (log.enabled('debug')) log.warn(message, { ...fields, err: error });
  else log.warn(message, { ...fields, error: errorText(error) });
}

function errorText(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
