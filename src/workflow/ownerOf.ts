import { requestPrincipal } from '../principal/requestPrincipal.js';
import type { RequestContext } from '../surface/types.js';

/** The owner of the instances a request may use: its principal's key (see `requestPrincipal`). */
export function ownerOf(scope: RequestContext): string {
  return requestPrincipal(scope).key;
}
