import type { FusionResourceTemplate } from '../../resources/types.js';
import { ResourceTemplateBuilder } from '../../resources/ResourceTemplateBuilder.js';
import type { ToolParts } from '../tools/buildToolParts.js';
import { ownerOf } from '../../workflow/WorkflowRuntime.js';
import type { RequestContext } from '../../surface/types.js';

/** URI of the resource that describes the last invalidation of a State Sync pattern. */
export function staleUri(pattern: string): string {
  return `fusion://stale/${pattern}`;
}

/**
 * The resources mcp-fusion itself serves over a runtime's tool parts: one per workflow instance
 * (`fusion://fsm/<machine>/{handle}`, owner-checked, `{ state, allowed, version, expiresAt }`) and one per
 * State Sync pattern (`fusion://stale/{pattern}`, the last invalidation). Clients subscribe to them (legacy
 * `resources/subscribe`, modern `subscriptions/listen`) to learn about changes without re-listing.
 */
export function systemResources(
  parts: Pick<ToolParts, 'workflow' | 'sync' | 'invalidations'>,
  subscribable = false,
): FusionResourceTemplate<any>[] {
  // Only promise subscriptions where the options offer them (legacy resources/subscribe needs resourceSubscriptions).
  const hear = (what: string): string => (subscribable ? ` Subscribe to it to hear ${what}.` : '');
  const out: FusionResourceTemplate<any>[] = [];
  const { workflow, sync, invalidations } = parts;
  if (workflow !== undefined && workflow.handles.settings.mode === 'handle') {
    const { machine } = workflow.handles.settings;
    out.push(
      new ResourceTemplateBuilder<any, string>(`fusion://fsm/${machine}/{handle}`)
        .name(`${machine}-instance`)
        .describe(
          `The state of one ${machine} workflow instance: { state, allowed, version, expiresAt }.${hear('about transitions')}`,
        )
        .mimeType('application/json')
        .handle(async (_uri: string, vars: Record<string, string>, _ctx: unknown, extra) => {
          const handle = vars.handle ?? '';
          const snap = await workflow.handles.read(ownerOf({ sessionKey: undefined, extra }), handle);
          if (snap === undefined) return null;
          // Only the tools this reader's scopes show: a hidden tool is never named.
          const allowed = workflow.allowedIn(snap.state, { extra: extra as RequestContext['extra'] });
          return JSON.stringify({
            state: snap.state,
            allowed,
            version: snap.version ?? 0,
            expiresAt: snap.expiresAt ?? null,
          });
        }) as FusionResourceTemplate<any>,
    );
  }
  if (sync !== undefined) {
    out.push(
      new ResourceTemplateBuilder<any, string>('fusion://stale/{pattern}')
        .name('stale-domain')
        .describe(
          `The last invalidation of a State Sync pattern (such as sprints.*): { pattern, causedBy, at }.${hear('when that data changes')}`,
        )
        .mimeType('application/json')
        .handle((_uri: string, vars: Record<string, string>) => {
          const pattern = vars.pattern ?? '';
          const last = invalidations.last(pattern);
          return JSON.stringify(
            last === undefined ? { pattern, invalidated: false } : { pattern, causedBy: last.causedBy, at: last.at },
          );
        }) as FusionResourceTemplate<any>,
    );
  }
  return out;
}

/** True when some dot-separated name matches both globs (`sprints.*` and `*.list` do: `sprints.list`). */
export function globsIntersect(a: string, b: string): boolean {
  const as = a.split('.');
  const bs = b.split('.');
  const memo = new Map<number, boolean>();
  const go = (i: number, j: number): boolean => {
    const key = i * (bs.length + 1) + j;
    const known = memo.get(key);
    if (known !== undefined) return known;
    let result: boolean;
    if (i === as.length && j === bs.length) result = true;
    else if (as[i] === '**') result = go(i + 1, j) || (j < bs.length && go(i, j + 1));
    else if (bs[j] === '**') result = go(i, j + 1) || (i < as.length && go(i + 1, j));
    else if (i === as.length || j === bs.length) result = false;
    else result = (as[i] === '*' || bs[j] === '*' || as[i] === bs[j]) && go(i + 1, j + 1);
    memo.set(key, result);
    return result;
  };
  return go(0, 0);
}

/**
 * The resource URIs an invalidation makes stale: `fusion://stale/<pattern>` for each pattern, and every
 * registered resource whose `.reflects()` globs meet one of the patterns.
 */
export function staleResourceUris(
  patterns: readonly string[],
  reflecting: ReadonlyArray<{ uri: string; reflects?: readonly string[] | undefined }>,
): string[] {
  const uris = patterns.map(staleUri);
  for (const resource of reflecting) {
    if (resource.reflects?.some((glob) => patterns.some((p) => globsIntersect(glob, p))) === true)
      uris.push(resource.uri);
  }
  return uris;
}
