/** The two cache directives State Sync appends to tool descriptions. */
export type CacheDirective = 'no-store' | 'immutable';

/** One registry-level State Sync rule; policies are evaluated first-match-wins. */
export interface SyncPolicy {
  /** Glob over dot-separated tool names (`sprints.*`, `**.get`). */
  match: string;
  /** Directive appended to the description of matching tools. */
  cacheControl?: CacheDirective;
  /** Globs of the domains a successful call of a matching tool invalidates. */
  invalidates?: string[];
}

/** Emitted after every successful invalidating call. */
export interface InvalidationEvent {
  causedBy: string;
  patterns: readonly string[];
  /** ISO-8601 */
  timestamp: string;
}

/** The MCP notification State Sync hands to `notificationSink`, one per invalidated pattern. */
export interface ResourceNotification {
  method: 'notifications/resources/updated';
  params: { uri: string };
}

/** `attachToServer(server, { stateSync })`. */
export interface StateSyncConfig {
  policies: SyncPolicy[];
  defaults?: { cacheControl?: CacheDirective };
  onInvalidation?: (event: InvalidationEvent) => void;
  notificationSink?: (notification: ResourceNotification) => void | Promise<void>;
}

/** The frozen outcome of resolving one tool name against the policies. */
export interface ResolvedPolicy {
  readonly cacheControl?: CacheDirective;
  readonly invalidates?: readonly string[];
}

/** What a tool declared inline with `.cached()`, `.stale()` and `.invalidates()`. */
export interface InlineSyncDeclaration {
  readonly cacheControl?: CacheDirective;
  readonly invalidates?: readonly string[];
}

/** One shadowed policy found by `detectOverlaps`: `shadowingIndex` comes first and matches every name `shadowedIndex` could. */
export interface OverlapWarning {
  readonly shadowingIndex: number;
  readonly shadowedIndex: number;
  /** Names both policies and says how to fix the order. */
  readonly message: string;
}

/** Options of `new StateSyncLayer(config, inline, options)`. */
export interface StateSyncLayerOptions {
  /** Clock for invalidation timestamps (milliseconds since the epoch); defaults to `Date.now`. */
  readonly now?: () => number;
}

/** The value of `_meta['fusion/invalidation']` on a result that invalidated something. */
export interface InvalidationMeta {
  /** Invalidated globs, in declaration order. */
  readonly patterns: readonly string[];
  /** The tool whose successful call caused it. */
  readonly causedBy: string;
  /** ISO-8601 time of the call. */
  readonly at: string;
}
