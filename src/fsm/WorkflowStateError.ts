import { FusionError } from '../errors/FusionError.js';

/** The workflow state of a session could not be read or written. */
export class WorkflowStateError extends FusionError {}
