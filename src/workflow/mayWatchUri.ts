import type { RequestContext } from '../surface/types.js';
import { ownerOf } from './ownerOf.js';
import type { WorkflowRuntime } from './WorkflowRuntime.js';

/**
 * Whether a caller may hear about `uri`: for a workflow-instance URI (`fusion://fsm/<machine>/<handle>`) only
 * its owner may (as only its owner may read it), so a subscription or listen filter naming another principal's
 * instance is refused like an unknown one; any other URI is not this check's business (true).
 */
export async function mayWatchUri(
  workflow: WorkflowRuntime | undefined,
  uri: unknown,
  rctx: Pick<RequestContext, 'extra'>,
): Promise<boolean> {
  if (typeof uri !== 'string' || workflow === undefined) return true;
  const { settings } = workflow.handles;
  const prefix = `fusion://fsm/${settings.machine}/`;
  if (settings.mode !== 'handle' || !uri.startsWith(prefix)) return true;
  const handle = uri.slice(prefix.length);
  const owner = ownerOf({ sessionKey: undefined, extra: rctx.extra } as RequestContext);
  return (await workflow.handles.read(owner, handle).catch(() => undefined)) !== undefined;
}

/** The refusal of a watch {@link mayWatchUri} denies: worded as for an unknown instance (nothing is revealed). */
export function unknownInstanceText(uri: string): string {
  return `Resource not found: "${uri}". No workflow instance of yours has this handle (it may have expired or ended). Watch the handle a call of this workflow returned to you.`;
}

/** Most workflow-instance URIs of one listen filter looked up (a longer filter is refused by its own limit). */
const MAX_LOOKUPS = 1_000;

/**
 * The workflow-instance URIs of a `subscriptions/listen` request's `resourceSubscriptions` filter that the
 * caller (`extra`: its token, era and request, which name its principal) does not own ({@link mayWatchUri}):
 * the filter leaves them out, unnamed, as it leaves out URIs the
 * caller's scopes hide.
 */
export async function unwatchableUris(
  workflow: WorkflowRuntime | undefined,
  listen: unknown,
  extra: Pick<RequestContext['extra'], 'authInfo' | 'era' | 'raw'>,
): Promise<ReadonlySet<string>> {
  const denied = new Set<string>();
  if (workflow === undefined || workflow.handles.settings.mode !== 'handle') return denied;
  const uris = (listen as { params?: { notifications?: { resourceSubscriptions?: unknown } } } | undefined)?.params
    ?.notifications?.resourceSubscriptions;
  if (!Array.isArray(uris)) return denied;
  const prefix = `fusion://fsm/${workflow.handles.settings.machine}/`;
  const instances = uris.filter((u): u is string => typeof u === 'string' && u.startsWith(prefix));
  await Promise.all(
    instances.slice(0, MAX_LOOKUPS).map(async (uri) => {
      if (!(await mayWatchUri(workflow, uri, { extra: extra as RequestContext['extra'] }))) denied.add(uri);
    }),
  );
  for (const uri of instances.slice(MAX_LOOKUPS)) denied.add(uri);
  return denied;
}
