import { isKnownValue } from '../../fsm/stateValue.js';
import type { FsmConfig, FsmStateValue } from '../../fsm/types.js';

/**
 * Pure: the state value an `--state` argument names, or `undefined` when it names no state of `config`.
 * A name (`draft`), a dotted path (`payment.card`), several paths for parallel regions separated by
 * commas (`review.legal.open,review.tech.done`), or XState's JSON value (`{"payment":"card"}`).
 */
export function parseStateArg(config: FsmConfig, arg: string): FsmStateValue | undefined {
  let value: unknown;
  if (arg.trim().startsWith('{')) {
    try {
      value = JSON.parse(arg);
    } catch {
      return undefined;
    }
  } else {
    const paths = arg
      .split(',')
      .map((p) => p.trim())
      .filter((p) => p.length > 0);
    value = paths.length === 1 ? paths[0] : paths.length === 0 ? undefined : merge(paths);
  }
  return isKnownValue(config, value) ? value : undefined;
}

function merge(paths: string[]): FsmStateValue {
  const root: Record<string, unknown> = {};
  for (const path of paths) {
    const parts = path.split('.');
    let node = root;
    parts.slice(0, -2).forEach((p) => (node = (node[p] ??= {}) as Record<string, unknown>));
    if (parts.length === 1) node[parts[0]!] = {};
    else node[parts.at(-2)!] = parts.at(-1)!;
  }
  return root as FsmStateValue;
}
