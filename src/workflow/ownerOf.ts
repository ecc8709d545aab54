import { requestPrincipal } from '../principal/requestPrincipal.js';
import type { RequestContext } from '../surface/types.js';

/** The owner of the instances a request may use: its principal's key (see `requestPrincipal`). */
export function ownerOf(rctx: RequestContext): string {
  return requestPrincipal(rctx).key;
}
