import type { AttachOptions, DebugEvent } from './options.js';

/** The observer of the `debug` option: none, stderr lines for `true`, or the function given. */
export function debugSink(debug: AttachOptions<unknown>['debug']): ((event: DebugEvent) => void) | undefined {
  if (debug === undefined || debug === false) return undefined;
  // `true` prints what it always printed: a `result` carries arguments and texts, kept for observers that ask.
  if (debug === true) return (event) => event.type !== 'result' && console.error(`[mcp-fusion] ${JSON.stringify(event, (_k, v: unknown) => (v instanceof Error ? v.message : v))}`);
  return debug;
}
