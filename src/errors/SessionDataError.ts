import { FusionError } from './FusionError.js';

/**
 * A handler's per-session data could not be used: a value that is not JSON, data past the size cap,
 * a request with no session or principal to key it by, or a store that failed. The message says which
 * and what to do.
 */
export class SessionDataError extends FusionError {}
