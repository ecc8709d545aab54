import { fixedJson } from '../_internal/fixedJson.js';
import { ScopeFilter } from '../auth/ScopeFilter.js';
import { narrowSurface } from './narrowSurface.js';
import type { ToolSwitch } from './ToolSwitch.js';
import type { StateSyncLayer } from '../state-sync/StateSyncLayer.js';
import { decorateDescription } from '../state-sync/DescriptionDecorator.js';
import { META } from '../state-sync/metaKeys.js';
import type { Surface, WireTool } from './compileSurface.js';
import { ListView } from './ListView.js';
import { modernSurface } from './modernSurface.js';
import type { RequestContext, ToolListResult } from './types.js';
import type { StateMachineGate } from '../fsm/StateMachineGate.js';
import type { WorkflowSettings } from '../fsm/workflowSettings.js';

/** How the modern list may be cached by clients (`ttlMs`, `cacheScope`). */
export interface ListCache {
  readonly ttlMs: number;
  readonly cacheScope: 'public' | 'private';
}

/**
 * What a caller may see, as one function of (workflow state, the principal's scopes, the run-time switch):
 * each distinct key gets one frozen list, computed on first use. The scope set picks a {@link ListView}
 * (one per set of relevant scopes), the workflow state picks its list, and the switch's version
 * invalidates them all when a tool is enabled or disabled.
 */
export class Visibility {
  readonly surface: Surface;
  readonly listCache: ListCache;
  readonly #scopes: ScopeFilter<ListView>;
  readonly #base: ListView;
  readonly #build: (surface: Surface) => ListView;

  constructor(
    surface: Surface,
    parts: {
      switch: ToolSwitch;
      sync: StateSyncLayer | undefined;
      workflow: { readonly gate: StateMachineGate; readonly settings: WorkflowSettings } | undefined;
      listCache: ListCache | undefined;
    },
  ) {
    this.surface = surface;
    this.#scopes = new ScopeFilter(surface.tools);
    // Lists that depend on who asks must not be shared by caches between principals.
    const cache = parts.listCache ?? { ttlMs: 60_000, cacheScope: this.#scopes.active ? 'private' : 'public' };
    this.listCache = cache;
    const freeze = (tools: readonly WireTool[], modern: boolean): ToolListResult => {
      // The tools array is serialized once for every answer that carries it (stringifyMessage).
      const base = { tools: fixedJson(tools) as unknown as Array<Record<string, unknown>> };
      return Object.freeze(modern ? { ...base, ttlMs: cache.ttlMs, cacheScope: cache.cacheScope } : base);
    };
    this.#build = (s) => {
      const listed = parts.sync === undefined ? s.wire : decorateSurface(s, parts.sync);
      const modern =
        parts.workflow === undefined ? listed : modernSurface(listed, s, parts.workflow.gate, parts.workflow.settings);
      return new ListView(s, { listed, modern }, parts.switch, freeze);
    };
    this.#base = this.#build(surface);
  }

  /** The scope gate of the surface's tools (active when some tool requires a scope). */
  get scopes(): ScopeFilter<ListView> {
    return this.#scopes;
  }

  /** The lists the caller of `scope` may see: the whole surface, or the part its scopes allow. */
  viewOf(rctx: RequestContext): ListView {
    if (!this.#scopes.active) return this.#base;
    return this.#scopes.view(ScopeFilter.scopesOf(rctx.extra.authInfo), (allowed) =>
      this.#build(narrowSurface(this.surface, allowed)),
    );
  }
}

/** Appends each exposed tool's directive (a grouped tool: no-store if any action is, immutable if all are). */
function decorateSurface(surface: Surface, sync: StateSyncLayer): WireTool[] {
  return surface.wire.map((wire) => {
    const route = surface.routes.get(wire.name);
    const tools = route === undefined ? [] : route.kind === 'flat' ? [route.tool] : [...route.actions.values()];
    const directives = tools.map((t) => sync.resolve(t.name)?.cacheControl);
    const directive = directives.includes('no-store')
      ? 'no-store'
      : directives.length > 0 && directives.every((d) => d === 'immutable')
        ? 'immutable'
        : undefined;
    if (directive === undefined) return wire;
    return {
      ...wire,
      description: decorateDescription(wire.description, directive),
      _meta: { ...wire._meta, [META.cacheControl]: directive },
    };
  });
}
