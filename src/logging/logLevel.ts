import { AttachError } from '../errors/FusionError.js';
import type { FusionLogLevel } from './types.js';

/** The levels in order of severity; a record passes when its rank is at least the configured one. */
export const LOG_RANK: Readonly<Record<FusionLogLevel, number>> = Object.freeze({
  debug: 10,
  info: 20,
  warn: 30,
  error: 40,
  silent: 50,
});

/** The level used when neither the `logLevel` option nor `MCP_FUSION_LOG` sets one. */
export const DEFAULT_LOG_LEVEL: FusionLogLevel = 'info';

/** The environment variable that sets the level when the option does not. */
export const LOG_ENV = 'MCP_FUSION_LOG';

/**
 * The effective level: the option, else `env` (the value of `MCP_FUSION_LOG`, read from the process by
 * default; case and surrounding spaces ignored), else `info`. An unknown value throws an `AttachError`
 * naming it and the accepted ones.
 */
export function resolveLogLevel(option: string | undefined, env: string | undefined = readEnv()): FusionLogLevel {
  if (option !== undefined) return parse(option, 'The logLevel option');
  const text = env?.trim().toLowerCase();
  return text === undefined || text === '' ? DEFAULT_LOG_LEVEL : parse(text, `The ${LOG_ENV} environment variable`);
}

function parse(value: string, source: string): FusionLogLevel {
  if (Object.hasOwn(LOG_RANK, value)) return value as FusionLogLevel;
  throw new AttachError(
    'LOG_LEVEL',
    `${source} is ${JSON.stringify(value)}; use one of debug, info, warn, error or silent.`,
    { level: value },
  );
}

function readEnv(): string | undefined {
  return (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[LOG_ENV];
}
