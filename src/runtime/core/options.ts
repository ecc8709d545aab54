import type { Clock } from '../../_internal/clock.js';
import type { HandlerExtra } from '../../protocol/types.js';
import type { TaskServiceOptions } from '../../tasks/TaskServiceOptions.js';
import type { StateSyncConfig } from '../../state-sync/types.js';
import type { FsmStateStore } from '../../fsm/FsmStateStore.js';
import type { StateMachineGate } from '../../fsm/StateMachineGate.js';
import type { WorkflowHandleLimits } from '../../workflow/HandleBudget.js';
import type { RequestStateOptions } from '../request-state/RequestStateSeal.js';
import type { WorkflowChange } from '../../workflow/WorkflowRuntime.js';
import type { ResourceSubscriptionOptions } from '../../resources/ResourceSubscriptions.js';
import type { SessionBus } from '../../session/SessionBus.js';
import type { SessionDataBackend } from '../../session/sessionData.js';
import type { SessionDataLimits } from '../../session/DataBudget.js';
import type { RateLimit, RateLimitStore } from '../../limits/types.js';
import type { ByteLedger } from '../../ledger/ByteLedger.js';
import type { HeldBytesLimits } from '../../ledger/types.js';
import type { DebugEvent, TracingOptions } from '../../tracing/types.js';
import type { FusionLogLevel, LogLimits, Logger } from '../../logging/types.js';

export type { DebugEvent };
import type { NameStyle, ToolFilter } from '../../surface/types.js';

/** Options of `registry.attachToServer(server, options)` and of the serving entry points. */
export interface AttachOptions<Ctx> {
  /** Builds the handler context per request (may be async). */
  contextFactory?: (extra: HandlerExtra) => Ctx | Promise<Ctx>;
  filter?: ToolFilter;
  stateSync?: StateSyncConfig;
  fsm?: StateMachineGate;
  /** Where per-session (legacy) workflow state lives; in memory by default (the HTTP app keeps it in the session). */
  fsmStore?: FsmStateStore;
  /** Where handle-keyed (modern) workflow instances live; defaults to `fsmStore`, else memory. */
  workflowStore?: FsmStateStore;
  /**
   * `true` logs every event to stderr as JSON; a function receives every event — `createDebugObserver()`
   * prints each as one readable line (to `console.debug` by default).
   */
  debug?: boolean | ((event: DebugEvent) => void);
  /**
   * How tools appear in `tools/list`. `builder` (default): exposition follows the builder, so a grouped
   * builder (`createTool`, `f.tool`) is one MCP tool with its discriminator and every fluent tool is one tool.
   * `flat`: one MCP tool per action (`platform.users.create`). `grouped`: like `builder`, and fluent tools
   * sharing a prefix become one tool with a discriminator. Canonical names, policies, bindings and filters
   * are the same in every mode.
   * @see docs/grouped-tools.md
   */
  toolExposition?: 'builder' | 'flat' | 'grouped';
  /** Renders declared names for clients that reject dots (`underscores` ⇒ `sprints_list`). */
  nameStyle?: NameStyle;
  /**
   * Default timeout of a handler in ms (30,000): tool calls, `prompts/get`, `resources/read` and
   * `completion/complete`; `.timeout(ms)` overrides it per tool.
   */
  timeoutMs?: number;
  /** Window in which a burst of FSM transitions yields one `list_changed` (50 ms). */
  listChangedDebounceMs?: number;
  /**
   * Most tool calls running at once per principal (unlimited): per verified user or client, and per
   * session (legacy) or peer address (modern HTTP) for anonymous callers.
   */
  maxConcurrentCalls?: number;
  /** Budgets of live handle-keyed workflow instances: per principal (1,000) and per process (50,000). */
  workflowHandles?: WorkflowHandleLimits;
  /**
   * Tool calls allowed per principal (the verified user or client; the session or connection without
   * authentication) in each window, over every tool; `.rateLimit()` adds a limit per tool. A refused call
   * is an `isError` result saying when to retry (`_meta["fusion/retryAfterMs"]`). `prompts/get`,
   * `resources/read` and `completion/complete` are counted against the same limit in a count of their own,
   * and refused with a JSON-RPC error of the same text.
   * @see docs/security.md#rate-limits
   */
  rateLimit?: RateLimit;
  /** Where rate-limit counts live: memory by default; `RedisRateLimitStore` shares them between instances. */
  rateLimitStore?: RateLimitStore;
  /** `ttlMs` / `cacheScope` of modern `tools/list` results (60 s; `private` when a tool requires scopes, else `public`). */
  listCache?: { ttlMs: number; cacheScope: 'public' | 'private' };
  /** A handle-keyed workflow instance changed state (the HTTP app publishes `resources/updated` for its URI). */
  onWorkflowChange?: (change: WorkflowChange) => void;
  /**
   * Carries per-session `list_changed` to other processes: transitions are published on the bus instead of
   * being sent by the local server, and whoever holds the session's stream delivers them. The HTTP app
   * subscribes for its sessions (`createFusionApp` derives it from a `bus` with `sessions`, such as
   * `RedisEventBus`); without it, notifications go straight to the local server.
   * @see docs/scaling.md
   */
  sessionBus?: SessionBus;
  /**
   * Offers the `logging` capability: legacy clients may set a level with `logging/setLevel`, and `extra.log()`
   * sends `notifications/message` at or above it; a modern request gets log messages only when it names a
   * log level in its `_meta`. Off by default (`extra.log()` is then a no-op).
   * @see docs/asking-the-client.md#logging
   */
  logging?: boolean;
  /**
   * Offers `resources.subscribe`: legacy sessions may `resources/subscribe` to registered resources (URIs
   * validated, idle expiry, released with the session), and `notifyResourceUpdated(uri)` on the app or the
   * attachment reaches exactly the subscribers; modern clients subscribe on `subscriptions/listen` streams.
   * @see docs/prompts-and-resources.md#subscriptions
   */
  resourceSubscriptions?: boolean | ResourceSubscriptionOptions;
  /**
   * Integrity protection of multi-round-trip `requestState` (`extra.sealState()` / `extra.requestState`):
   * the HMAC key shared by every instance, and the lifetime of a sealed state. Default: a random key per
   * process, 600 s.
   * @see docs/asking-the-client.md#state-across-rounds-extrasealstate
   */
  requestState?: RequestStateOptions;
  /**
   * Where handlers' per-session data (`extra.session`) lives; in memory by default (released with the
   * session). The HTTP app keeps it in its session store, so it survives restarts and moves across instances.
   */
  sessionData?: SessionDataBackend;
  /** Cap of one session's (or principal's, or workflow instance's) data as JSON, in bytes (64 KiB). */
  sessionDataMaxBytes?: number;
  /**
   * Budgets of all handler data one principal (or anonymous peer) holds, and all of it together, in bytes
   * (4 MiB and 32 MiB), for the built-in backends; a write past one is refused with what to do.
   */
  sessionDataLimits?: SessionDataLimits;
  /**
   * Budgets of every byte this process holds on clients' behalf (bodies being read, listen requests, stored
   * events, tasks, console events, session and handle data, request state, queued logs), per principal, per
   * network peer and in total (8, 12 and 64 MiB); or a {@link ByteLedger} to share one between apps.
   * @see docs/security.md#the-ledger
   */
  heldBytes?: HeldBytesLimits | ByteLedger;
  /**
   * The clock of timestamps, expiries and TTLs, and of every timer (store sweeps, debounces, tool deadlines,
   * stream lifetimes, the drain): default the wall clock with real unref'd timers. In tests, `createClock()` of
   * `mcp-fusion/testing`, which moves only when the test advances it.
   * @see docs/testing.md
   */
  clock?: Clock;
  /**
   * OpenTelemetry: every MCP request becomes a SERVER span (`tools/call notes.delete`) with the MCP semantic
   * conventions' attributes, parented on the caller's `params._meta` trace context, plus the
   * `mcp.server.operation.duration` and `mcp.server.session.duration` histograms. `true` uses the global
   * tracer and meter providers; pass `{ tracer, meter, api }` to choose. Needs the optional peer
   * `@opentelemetry/api`; off (and free) by default.
   * @see docs/observability.md
   */
  tracing?: boolean | TracingOptions;
  /**
   * Tasks of task-supporting tools (`.task()`): where they live (`store`, memory by default; a
   * `RedisTaskStore` to share them between instances), their budgets and the lease of running work.
   * @see docs/tasks.md
   */
  tasks?: TaskServiceOptions;
  /** Where startup warnings go (overlaps, typos, unreachable states); by default the logger, at `warn` (and the debug channel). */
  onWarning?: (message: string) => void;
  /**
   * Where failures and refusals are logged, once each with their tool, session or workflow instance,
   * principal, trace id, duration and error (with its stack): throwing handlers and context factories,
   * failing stores and buses, throwing listeners, startup warnings, and (throttled, at `warn`) rate-limit
   * and budget refusals. Any pino-shaped logger (`debug/info/warn/error(fields, message)`); by default one
   * line per record on stderr, never stdout. Tokens are never logged.
   * @example startServer(registry, { logger: pino() })
   * @see docs/observability.md#logging
   */
  logger?: Logger;
  /** The least severe records passed to the logger: this option, else the `MCP_FUSION_LOG` environment variable, else `info`. */
  logLevel?: FusionLogLevel;
  /** Adds a failed or refused call's arguments to its log record; off by default (arguments may hold personal data). */
  logArguments?: boolean;
  /**
   * The bounds of the log: each value (message, field, error message, stack frames) cut to `maxValueBytes`
   * (2048) with its length named, and at most `maxQueueBytes` (1 MiB) of lines waiting for a slow stderr.
   * @see docs/observability.md#logging
   */
  logLimits?: LogLimits;
}
