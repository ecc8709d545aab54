import { DefinitionError } from '../errors/FusionError.js';
import { allPaths, isKnownPath } from './stateValue.js';
import type { FsmConfig, FsmStateConfig } from './types.js';

/** Fails fast on a machine that cannot work, naming the culprit. Nested states are checked level by level. */
export function validateFsmConfig(config: FsmConfig, guards: Record<string, unknown> = {}): void {
  const name = config?.id === undefined ? 'The FSM' : `FSM "${config.id}"`;
  const states = config?.states;
  if (typeof states !== 'object' || states === null || Object.keys(states).length === 0) {
    throw new DefinitionError('FSM_CONFIG', `${name} has no states; declare at least one under "states".`, {
      machine: config?.id,
    });
  }
  if (!Object.hasOwn(states, config.initial)) {
    throw new DefinitionError(
      'FSM_CONFIG',
      `${name} has initial state "${config.initial}", which is not one of its states (${Object.keys(states).join(', ')}).`,
      { machine: config.id, state: config.initial },
    );
  }
  for (const [guard, fn] of Object.entries(guards)) {
    if (typeof fn !== 'function')
      throw new DefinitionError(
        'FSM_CONFIG',
        `${name}: guard "${guard}" is not a function; pass ({ context, event }) => boolean.`,
        { machine: config.id, guard },
      );
  }
  checkLevel(config, name, states, '', guards);
}

function checkLevel(
  config: FsmConfig,
  name: string,
  states: Record<string, FsmStateConfig>,
  prefix: string,
  guards: Record<string, unknown>,
): void {
  for (const state of Object.keys(states)) {
    // XState reads these as paths (`a.b`, `#id`); the built-in engine would not, so the engines would disagree.
    if (state.includes('.') || state.startsWith('#')) {
      throw new DefinitionError(
        'FSM_CONFIG',
        `${name} has state "${prefix + state}"; state names may not contain "." or start with "#" (XState reads them as paths). Rename it, e.g. "${state.replace(/^#/, '').replaceAll('.', '_')}".`,
        { machine: config.id, state: prefix + state },
      );
    }
  }
  for (const [state, def] of Object.entries(states)) {
    const path = prefix + state;
    if (def.states !== undefined) {
      if (Object.keys(def.states).length === 0)
        throw new DefinitionError(
          'FSM_CONFIG',
          `${name}: state "${path}" has an empty "states"; give it children or remove "states".`,
          { machine: config.id, state: path },
        );
      if (def.type !== 'parallel' && def.initial !== undefined && !Object.hasOwn(def.states, def.initial)) {
        throw new DefinitionError(
          'FSM_CONFIG',
          `${name}: state "${path}" has initial child "${def.initial}", which is not one of its states (${Object.keys(def.states).join(', ')}).`,
          { machine: config.id, state: path },
        );
      }
      if (def.type !== 'parallel' && def.initial === undefined) {
        throw new DefinitionError(
          'FSM_CONFIG',
          `${name}: nested state "${path}" has no "initial" child; name one of ${Object.keys(def.states).join(', ')}.`,
          { machine: config.id, state: path },
        );
      }
      checkLevel(config, name, def.states, `${path}.`, guards);
    } else if (def.type === 'parallel') {
      throw new DefinitionError(
        'FSM_CONFIG',
        `${name}: parallel state "${path}" has no regions; declare them under "states".`,
        { machine: config.id, state: path },
      );
    }
    for (const [event, target] of Object.entries(def.on ?? {})) {
      // XState treats "*" as a wildcard and ignores its own "xstate.*" events; the built-in engine does neither.
      if (event.includes('*') || event.startsWith('xstate.')) {
        throw new DefinitionError(
          'FSM_CONFIG',
          `${name}: state "${path}" handles event "${event}"; wildcards ("*") and the reserved "xstate." prefix are not supported. List each event by its exact name.`,
          { machine: config.id, state: path, event },
        );
      }
      for (const t of Array.isArray(target) ? target : [target]) {
        const to = typeof t === 'string' ? t : t?.target;
        const guard = typeof t === 'object' && t !== null ? t.guard : undefined;
        if (guard !== undefined && !Object.hasOwn(guards, guard)) {
          throw new DefinitionError(
            'FSM_CONFIG',
            `${name}: state "${path}" guards event "${event}" with "${guard}", which is not in the gate's guards option; pass guards: { ${guard}: ({ context, event }) => boolean }.`,
            { machine: config.id, state: path, event, guard },
          );
        }
        if (to !== undefined && !knownTarget(config, states, prefix, to)) {
          throw new DefinitionError(
            'FSM_CONFIG',
            `${name}: state "${path}" sends event "${event}" to unknown state "${to}"; add the state or fix the target (known: ${allPaths(config).join(', ')}).`,
            { machine: config.id, state: path, event, target: to },
          );
        }
      }
    }
  }
}

/** A target is a sibling (`'paid'`, `'payment.card'`), or an absolute `#<id>.<path>`. */
function knownTarget(
  config: FsmConfig,
  siblings: Record<string, FsmStateConfig>,
  prefix: string,
  target: string,
): boolean {
  if (target.startsWith('#')) {
    const [id, ...rest] = target.slice(1).split('.');
    return id === (config.id ?? 'fusion') && (rest.length === 0 || isKnownPath(config, rest.join('.')));
  }
  const [first] = target.split('.');
  return first !== undefined && Object.hasOwn(siblings, first) && isKnownPath(config, prefix + target);
}

/** Throws unless every state exists; dotted paths (`payment.card`) name nested states. */
export function assertKnownStates(config: FsmConfig, states: readonly string[], what: string): void {
  for (const state of states) {
    if (typeof state !== 'string' || !isKnownPath(config, state)) {
      throw new DefinitionError(
        'FSM_UNKNOWN_STATE',
        `${what} names unknown state "${String(state)}"${config.id !== undefined ? ` of FSM "${config.id}"` : ''}; known states: ${allPaths(config).join(', ')}.`,
        { machine: config.id, state },
      );
    }
  }
}
