import { OperatorLog } from './OperatorLog.js';
import type { LogOptions } from './types.js';

/**
 * Where a startup warning (overlapping policies, a missing auth option…) goes: the `onWarning` option
 * when set (unchanged), else the logger at `warn`.
 */
export function warnOf(
  options: LogOptions & { onWarning?: ((message: string) => void) | undefined },
): (message: string) => void {
  if (options.onWarning !== undefined) return options.onWarning;
  return (message) => OperatorLog.of(options).warn(message.replace(/^\[mcp-fusion\] /, ''));
}
