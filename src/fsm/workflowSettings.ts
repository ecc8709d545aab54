import type { StateMachineGate } from './StateMachineGate.js';

const DAY = 24 * 60 * 60_000;

/** How one machine names its instances on the modern surface. */
export interface WorkflowSettings {
  readonly machine: string;
  readonly mode: 'handle' | 'subject';
  readonly handleArg: string;
  readonly prefix: string;
  readonly idleTtlMs: number;
  readonly legacy: 'session' | 'handle';
}

/** The settings of a gate, with defaults (`checkout` ⇒ `checkout_id`, prefix `che_`, 24 h). */
export function workflowSettings(gate: StateMachineGate): WorkflowSettings {
  const { config } = gate;
  const machine = config.id ?? 'workflow';
  return Object.freeze({
    machine,
    mode: config.key ?? 'handle',
    handleArg: config.handleArg ?? `${machine.replace(/[^A-Za-z0-9_]/g, '_')}_id`,
    prefix:
      config.handlePrefix ??
      `${
        machine
          .replace(/[^A-Za-z0-9]/g, '')
          .slice(0, 3)
          .toLowerCase() || 'wf'
      }_`,
    idleTtlMs: config.idleTtlMs ?? DAY,
    legacy: config.legacy ?? 'session',
  });
}
