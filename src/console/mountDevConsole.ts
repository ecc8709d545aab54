import type { StateMachineGate } from '../fsm/StateMachineGate.js';
import { matchGlob } from '../state-sync/matchGlob.js';
import type { SessionBus } from '../session/SessionBus.js';
import type { SessionEvent } from '../session/types.js';
import { staleResourceUris } from '../runtime/content/systemResources.js';
import type { RequestContext } from '../surface/types.js';
import type { DebugEvent } from '../tracing/types.js';
import type { WorkflowChange } from '../workflow/WorkflowRuntime.js';
import { ConsoleHub } from './ConsoleHub.js';
import { ConsoleMetrics } from './ConsoleMetrics.js';
import { ConsoleRoutes } from './consoleRoutes.js';
import { machineOf } from './machineOf.js';
import type { ConsolePayload, ConsoleSkills } from './types.js';
import type { ByteLedger } from '../ledger/ByteLedger.js';

/** The console's bounds, every one set. */
export interface ConsoleBounds {
  readonly maxEvents: number;
  readonly maxBytes: number;
  readonly maxEventBytes: number;
  readonly snapshotBytes: number;
  readonly pageQueueBytes: number;
  readonly maxSessions: number;
}

/** What the dev console needs of the app it is mounted on. */
export interface DevConsoleParts {
  readonly token: string;
  readonly path: string;
  /** The bounds of the console's buffer and of each page's stream (the `devConsole` option, defaults filled). */
  readonly bounds: ConsoleBounds;
  /** The ledger the console's bytes are charged to (the app's own). */
  readonly ledger: ByteLedger | undefined;
  /** Hostnames the console's `Host` header may name. */
  readonly hosts: readonly string[];
  readonly bus: SessionBus | undefined;
  readonly gate: StateMachineGate | undefined;
  /** The registry's tool names (canonical), to show which ones an invalidation reached. */
  readonly tools: readonly string[];
  readonly resources: ReadonlyArray<{ uri: string; reflects?: readonly string[] | undefined }>;
  readonly visibleToolNames: (rctx: RequestContext) => Promise<string[]>;
  readonly onInvalidation: (listener: (patterns: readonly string[], causedBy: string) => void) => () => void;
  readonly now?: (() => number) | undefined;
  /** The skills the server publishes (the workflow's generated one first). */
  readonly skills: ConsoleSkills;
}

/** A mounted dev console: it hears the app's events and answers the requests under its path. */
export interface DevConsole {
  event(event: DebugEvent): void;
  sessionEvent(event: SessionEvent): void;
  workflowChange(change: WorkflowChange): void;
  readonly routes: ConsoleRoutes;
  close(): void;
}

/**
 * Mounts the dev console (loaded lazily by `devConsole: true`, outside the root entry's import graph).
 * @see docs/console.md
 */
export function mountDevConsole(parts: DevConsoleParts): DevConsole {
  const now = parts.now ?? Date.now;
  const instance = crypto.randomUUID().slice(0, 8);
  const { bounds, ledger } = parts;
  const hub = new ConsoleHub({ ...bounds, ledger, instance, bus: parts.bus, now });
  const metrics = new ConsoleMetrics(now, { maxSessions: bounds.maxSessions });
  hub.listen((entry) => metrics.add(entry));
  const rctxOf = (key: string | undefined, modern: boolean, scopes: readonly string[]): RequestContext =>
    ({
      sessionKey: modern ? undefined : key,
      extra: {
        era: modern ? 'modern' : 'legacy',
        ...(scopes.length > 0 ? { authInfo: { token: '', clientId: 'dev-console', scopes } } : {}),
      },
    }) as unknown as RequestContext;
  // The lists legacy sessions see, per session and scopes, until a transition or a tools change.
  const visible = new Map<string, Promise<string[]>>();
  const visibleAfter = (sessionId: string, scopes: readonly string[]): Promise<string[]> => {
    const key = `${sessionId}|${scopes.join(' ')}`;
    let list = visible.get(key);
    if (list === undefined) {
      if (visible.size >= 1_000) visible.clear();
      list = parts.visibleToolNames(rctxOf(sessionId, false, scopes));
      visible.set(key, list);
      list.catch(() => visible.delete(key));
    }
    return list;
  };
  const stopInvalidations = parts.onInvalidation((patterns, causedBy) => {
    const uris = staleResourceUris(patterns, parts.resources);
    if (uris.length > 0) hub.record({ type: 'resources_updated', uris, cause: `invalidation by ${causedBy}` });
  });
  const routes = new ConsoleRoutes({
    hub,
    path: parts.path,
    token: parts.token,
    hosts: parts.hosts,
    stream: {
      hub,
      hubId: instance,
      machine: parts.gate === undefined ? undefined : machineOf(parts.gate),
      snapshotBytes: bounds.snapshotBytes,
      queueBytes: bounds.pageQueueBytes,
      ledger,
    },
    now,
    skills: parts.skills,
    metrics: () => metrics.view(),
    view: async ({ key, principal }) => {
      const row = key !== undefined ? hub.session(key) : hub.sessions().find((s) => s.principal === principal);
      if (row === undefined) return [];
      return parts.visibleToolNames(rctxOf(row.key, key === undefined || row.kind === 'workflow', row.scopes));
    },
  });
  return {
    routes,
    event(event) {
      // A `result` tells all a `call` does, and more.
      if (event.type === 'call') return;
      if (event.type === 'error') {
        const error =
          event.error instanceof Error
            ? { message: event.error.message, ...(event.error.stack !== undefined ? { stack: event.error.stack } : {}) }
            : { message: String(event.error) };
        hub.record({ type: 'error', message: event.message, error });
      } else if (event.type === 'invalidation') {
        const tools = parts.tools.filter((name) => event.patterns.some((p) => matchGlob(p, name)));
        hub.record({ ...event, tools, resources: staleResourceUris(event.patterns, parts.resources) });
      } else if (event.type === 'result' && event.sessionId !== undefined) {
        // What the session lists right after the call: the step a replayed transcript compares (modern calls
        // act on handles minted anew on every run, so their transcripts do not replay and need no list).
        visibleAfter(event.sessionId, event.scopes).then(
          (visible) => hub.record(event, visible),
          () => hub.record(event),
        );
      } else {
        // A session's list changes with its workflow state, everyone's with a run-time enable or disable.
        if (event.type === 'transition' && event.sessionId !== undefined)
          for (const key of visible.keys()) if (key.startsWith(`${event.sessionId}|`)) visible.delete(key);
        if (event.type === 'list_changed' && event.reason === 'tools-changed') visible.clear();
        hub.record(event as ConsolePayload);
      }
    },
    sessionEvent(event) {
      hub.record({ type: 'session', sessionId: event.id, phase: event.to, reason: event.reason });
    },
    workflowChange(change) {
      if (!change.minted)
        hub.record({
          type: 'resources_updated',
          uris: [change.uri],
          cause: `workflow ${change.machine} ${change.handle} changed state`,
        });
    },
    close() {
      stopInvalidations();
      hub.close();
      routes.close();
    },
  };
}
