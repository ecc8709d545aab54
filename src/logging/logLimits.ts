import { AttachError } from '../errors/FusionError.js';
import { DEFAULT_MAX_VALUE_BYTES } from './escapeLogText.js';
import type { LogLimits } from './types.js';

/**
 * The `logLimits` option checked, with the default value bound filled in (2048 bytes); the queue bound stays
 * unset unless given, so the stream's queue keeps its own (1 MiB). A bound that is not a positive integer
 * throws an `AttachError` naming it.
 */
export function resolveLogLimits(limits: LogLimits = {}): LogLimits & { maxValueBytes: number } {
  for (const key of ['maxValueBytes', 'maxQueueBytes'] as const) {
    const value = limits[key];
    if (value !== undefined && !(Number.isSafeInteger(value) && value > 0))
      throw new AttachError(
        'LOG_LIMITS',
        `logLimits.${key} is ${String(value)}; give a positive whole number of bytes (or leave it out for the default).`,
        { [key]: value },
      );
  }
  return { ...limits, maxValueBytes: limits.maxValueBytes ?? DEFAULT_MAX_VALUE_BYTES };
}
