import type { ToolResponse } from '../../protocol/types.js';

/**
 * How a task's call tells its service that every stage admitted it (scopes, gate, arguments, rate limit):
 * the handler stage calls `admitted` just before the handler runs, which resolves `reached`; the service
 * makes the task's record only then, so a call a stage refuses leaves no record and takes no task slot.
 */
export interface TaskAdmission {
  /** Given to the call's extra (`DetachedParts.admitted`): the handler waits for what it returns. */
  readonly admitted: () => Promise<ToolResponse | undefined> | undefined;
  /** Resolves (to undefined) once the stages admitted the call. */
  readonly reached: Promise<undefined>;
  /** The record is stored: the handler may run. */
  readonly stored: () => void;
  /** The record could not be made (a task budget, the store): `answer` ends the call, its handler never runs. */
  readonly refused: (answer: ToolResponse) => void;
}

/**
 * The admission of one task's call. `immediate`: the handler runs at once (a call settling within the turn
 * is answered inline, without a record); otherwise it waits until the record is stored.
 */
export function admissionOf(immediate: boolean): TaskAdmission {
  let reach!: (value: undefined) => void;
  const reached = new Promise<undefined>((resolve) => (reach = resolve));
  let decide: (answer: ToolResponse | undefined) => void = () => {};
  const record = immediate ? undefined : new Promise<ToolResponse | undefined>((resolve) => (decide = resolve));
  const admitted = (): Promise<ToolResponse | undefined> | undefined => {
    reach(undefined);
    return record;
  };
  return { admitted, reached, stored: () => decide(undefined), refused: (answer) => decide(answer) };
}
