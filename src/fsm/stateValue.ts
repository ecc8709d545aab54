import type { FsmConfig, FsmStateConfig, FsmStateValue } from './types.js';

/**
 * Every active state path of a value, ancestors included: `'draft'` → `['draft']`,
 * `{ payment: 'card' }` → `['payment', 'payment.card']`, a parallel `{ review: { legal: 'open', tech: 'done' } }`
 * → `['review', 'review.legal', 'review.legal.open', 'review.tech', 'review.tech.done']`. A dotted string is
 * read as a path (`'payment.card'`). A binding matches when it equals one of them, so a binding to a parent
 * covers its children.
 */
export function activePaths(value: FsmStateValue): string[] {
  if (typeof value === 'string') {
    const parts = value.split('.');
    return parts.map((_, i) => parts.slice(0, i + 1).join('.'));
  }
  const out: string[] = [];
  for (const [region, inner] of Object.entries(value)) {
    out.push(region);
    for (const path of activePaths(inner)) out.push(`${region}.${path}`);
  }
  return out;
}

/** Whether a value matches any of `states` (exact path or an ancestor of an active path). */
export function matchesAny(value: FsmStateValue, states: readonly string[]): boolean {
  if (typeof value === 'string' && !value.includes('.')) return states.includes(value);
  const paths = activePaths(value);
  return states.some((s) => paths.includes(s));
}

/** How a value reads in messages: `draft`, `payment.card`, `review.legal.open + review.tech.done`. */
export function describeState(value: FsmStateValue): string {
  return typeof value === 'string' ? value : leafPaths(value).join(' + ');
}

/** A stable map key of a value (itself for a flat state). */
export function stateKey(value: FsmStateValue): string {
  return typeof value === 'string' ? value : JSON.stringify(value, Object.keys(flattenKeys(value)).sort());
}

/** Whether two values are the same state. */
export function sameState(a: FsmStateValue, b: FsmStateValue): boolean {
  return a === b || (typeof a !== 'string' && typeof b !== 'string' && stateKey(a) === stateKey(b));
}

/** True when the machine needs XState: nested (compound) or parallel states, or guarded transitions. */
export function isStatechart(config: FsmConfig): boolean {
  const walk = (states: Record<string, FsmStateConfig>): boolean =>
    Object.values(states).some(
      (s) =>
        s.states !== undefined ||
        s.type === 'parallel' ||
        Object.values(s.on ?? {}).some((t) => typeof t !== 'string') ||
        (s.states !== undefined && walk(s.states)),
    );
  return walk(config.states);
}

/** The full starting value: the initial state, entered down to its initial (or, for parallel, every) child. */
export function initialValue(config: FsmConfig): FsmStateValue {
  return enter(config.states, config.initial);
}

function enter(states: Record<string, FsmStateConfig>, name: string): FsmStateValue {
  const def = states[name];
  if (def?.states === undefined) return name;
  if (def.type === 'parallel')
    return {
      [name]: Object.fromEntries(
        Object.keys(def.states).map((region) => [region, innerOf(enter(def.states!, region), region)]),
      ),
    };
  return { [name]: enter(def.states, def.initial ?? Object.keys(def.states)[0]!) };
}

function innerOf(value: FsmStateValue, region: string): FsmStateValue {
  return typeof value === 'string' ? region : value[region]!;
}

/** Whether a dotted path names a state of the machine (`payment`, `payment.card`). */
export function isKnownPath(config: FsmConfig, path: string): boolean {
  let states: Record<string, FsmStateConfig> | undefined = config.states;
  for (const part of path.split('.')) {
    if (states === undefined || !Object.hasOwn(states, part)) return false;
    states = states[part]!.states;
  }
  return true;
}

/** Whether a stored value is a state of the machine (every active path known). */
export function isKnownValue(config: FsmConfig, value: unknown): value is FsmStateValue {
  if (typeof value === 'string') return isKnownPath(config, value);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  try {
    return activePaths(value as FsmStateValue).every((p) => isKnownPath(config, p));
  } catch {
    return false;
  }
}

/** Every dotted path of the machine, depth first (`payment`, `payment.card`, …). */
export function allPaths(config: FsmConfig): string[] {
  const out: string[] = [];
  const walk = (states: Record<string, FsmStateConfig>, prefix: string): void => {
    for (const [name, def] of Object.entries(states)) {
      out.push(prefix + name);
      if (def.states !== undefined) walk(def.states, `${prefix}${name}.`);
    }
  };
  walk(config.states, '');
  return out;
}

function leafPaths(value: FsmStateValue, prefix = ''): string[] {
  if (typeof value === 'string') return [prefix + value];
  return Object.entries(value).flatMap(([k, v]) => leafPaths(v, `${prefix}${k}.`));
}

function flattenKeys(value: FsmStateValue, acc: Record<string, true> = {}): Record<string, true> {
  if (typeof value === 'string') return acc;
  for (const [k, v] of Object.entries(value)) {
    acc[k] = true;
    flattenKeys(v, acc);
  }
  return acc;
}
