import type { SessionData } from '../session/sessionData.js';
import type { CacheDirective, InlineSyncDeclaration } from '../state-sync/types.js';
import type { FsmBinding } from '../fsm/types.js';
import type { RateLimit } from '../limits/types.js';
import type { Principal } from '../principal/types.js';
import type { TaskDeclaration } from '../tasks/types.js';

/** A JSON Schema object as listed in `tools/list` (`type: 'object'` at the root). */
export interface JsonObjectSchema {
  type: 'object';
  properties?: Record<string, unknown>;
  required?: string[];
  [key: string]: unknown;
}

/** One content block of a tool result (the MCP `ContentBlock` union, kept structural). */
export type ContentBlock =
  | { type: 'text'; text: string; _meta?: Record<string, unknown>; annotations?: Record<string, unknown> }
  | {
      type: 'image' | 'audio';
      data: string;
      mimeType: string;
      _meta?: Record<string, unknown>;
      annotations?: Record<string, unknown>;
    }
  | {
      type: 'resource';
      resource: Record<string, unknown>;
      _meta?: Record<string, unknown>;
      annotations?: Record<string, unknown>;
    }
  | { type: 'resource_link'; uri: string; name: string; [key: string]: unknown };

/** An MCP `CallToolResult`, the plain shape every tool call resolves to. */
export interface ToolResponse {
  content: ContentBlock[];
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
  _meta?: Record<string, unknown>;
  [key: string]: unknown;
}

/** The MCP tool annotations (hints for hosts). */
export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** MCP log levels (RFC 5424). */
export type LogLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';

/** The protocol era a request arrived on. */
export type ProtocolEra = 'legacy' | 'modern';

/**
 * The third argument of every handler and the argument of `contextFactory`: what the framework knows
 * about the request, independent of the SDK. Read its fields or destructure it (`{ signal, progress }`); on a
 * served request the signal, principal, session data and client helpers are made when first read, so a
 * spread copy (`{ ...extra }`) does not carry them — pass `extra` itself along.
 */
export interface HandlerExtra {
  /** Aborted on timeout, cancellation or shutdown. */
  readonly signal: AbortSignal;
  /** The legacy `Mcp-Session-Id` (or the connection's id over stdio/in-memory); undefined on modern requests. */
  readonly sessionId: string | undefined;
  readonly era: ProtocolEra;
  readonly requestId: string | number;
  /** Auth info the transport validated (HTTP), if any. */
  readonly authInfo: unknown;
  /** The request's `_meta`. */
  readonly meta: Readonly<Record<string, unknown>> | undefined;
  /**
   * What the client declared it can do (`sampling`, `elicitation`, `roots`, …): on a modern request the
   * capabilities its envelope carries, on a legacy session those of its `initialize`. Check it before
   * returning an `inputRequired(...)` that needs one, since asking for an undeclared capability fails with
   * -32021. Undefined when unknown.
   */
  readonly clientCapabilities: Readonly<Record<string, unknown>> | undefined;
  /** Sends `notifications/progress` when the client asked for progress; otherwise a no-op. */
  progress(done: number, total?: number, message?: string): Promise<void>;
  /** Sends a log message to the client (legacy `notifications/message`, filtered by its log level). */
  log(level: LogLevel, data: unknown, logger?: string): Promise<void>;
  /**
   * Asks the client for input (legacy era, push style). Throws a clear error when the client did not
   * declare the `elicitation` capability. For both eras, return the SDK's `inputRequired(...)` instead.
   */
  elicit(params: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** Asks the client's model for a completion (legacy era); throws when the client lacks `sampling`. */
  sample(params: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** Answers to an earlier `input_required` return (multi-round-trip), keyed as requested. */
  readonly inputResponses: Readonly<Record<string, unknown>> | undefined;
  /**
   * The state an earlier round of this call sealed with {@link HandlerExtra.sealState}, verified: unaltered,
   * minted for this same tool, prompt or resource and caller, and not expired (a state failing any check is
   * refused with -32602 before the handler runs). Undefined on a first round.
   */
  readonly requestState: unknown;
  /**
   * Seals `payload` (JSON) into an integrity-protected `requestState` string to return with
   * `inputRequired({ inputRequests, requestState })`; the retried call gets it back as `extra.requestState`.
   * @example
   * if (extra.requestState === undefined) return inputRequired({ inputRequests: { step1: … }, requestState: await extra.sealState({ step: 1 }) });
   */
  sealState(payload: unknown): Promise<string>;
  /** The SDK's own handler context, for escape hatches. Its shape belongs to the SDK. */
  readonly raw: unknown;
  /**
   * Who is calling: the same principal that owns workflow handles, sealed state and budgets
   * (`requestPrincipal`): a verified user or client, else an anonymous caller keyed by its legacy session
   * or connection — on a 2026-07-28 request without credentials, by its peer address (anonymous clients on
   * one host share it). Key per-caller app data by `principal.key` behind authentication, per-workflow data
   * by `workflow.key`, never by a shared default.
   */
  readonly principal: Principal;
  /**
   * For calls of FSM-bound tools: which workflow instance the call acts on — the session (legacy) or
   * the handle (modern). Use `key` to keep per-instance data such as a cart.
   */
  readonly workflow?:
    | { readonly machine: string; readonly key: string; readonly handle: string | undefined }
    | undefined;
  /**
   * Per-session data for handlers (the seeds' `set_session_data` / `get_session_data`): per session on
   * legacy calls, per workflow instance (bound tools) or authenticated principal on modern ones. Kept in
   * the configured session store, capped in size. Present on every served tool call.
   * @example await extra.session?.set('locale', 'pt-BR'); const locale = await extra.session?.get<string>('locale');
   */
  readonly session?: SessionData | undefined;
}

/**
 * A multi-round-trip `input_required` return, as the SDK's `inputRequired({ inputRequests, requestState })`
 * builds it: the client fulfils the embedded requests and calls again with `inputResponses` (and the
 * `requestState`). Tool, prompt and resource handlers may return one; it passes through untouched.
 */
export interface InputRequiredReturn {
  resultType: 'input_required';
  inputRequests?: Record<string, unknown>;
  requestState?: string;
  [key: string]: unknown;
}

/** What a handler may return: a string (sent as text), a `ToolResponse` (as is), anything else (as JSON text). */
export type HandlerReturn = string | ToolResponse | unknown;

/** `(input, ctx, extra)` */
export type ToolHandler<Ctx, Input> = (
  input: Input,
  ctx: Ctx,
  extra: HandlerExtra,
) => HandlerReturn | Promise<HandlerReturn>;

/**
 * Runs around a handler: call `next()` to continue the chain, or return early to short-circuit.
 * Compiled once at build time into a single closure.
 */
export type Middleware<Ctx> = (
  ctx: Ctx,
  args: Record<string, unknown>,
  next: () => Promise<ToolResponse>,
  extra: HandlerExtra,
) => HandlerReturn | Promise<HandlerReturn>;

/** One field problem found by validation. */
export interface ValidationIssue {
  /** Dotted path, or '' for the arguments object itself. */
  readonly path: string;
  readonly message: string;
}

export type ValidationOutcome =
  | { readonly ok: true; readonly value: Record<string, unknown> }
  | { readonly ok: false; readonly issues: readonly ValidationIssue[] };

/** Kinds of fluent tools: their default annotations differ. */
export type ToolKind = 'query' | 'action' | 'mutation';

/** How a grouped builder's action is exposed as one tool with a discriminator (the default `toolExposition`). */
export interface GroupMembership {
  /** The MCP tool the action lives in, e.g. `platform`. */
  readonly tool: string;
  /** The discriminator value, e.g. `users.create`. */
  readonly key: string;
  readonly discriminator: string;
}

/**
 * A built, frozen tool: everything `tools/list` and `tools/call` need, computed once.
 * Produced by `f.query(...).handle(...)` and by grouped builders (one per action).
 */
export interface FusionTool<Ctx = any> {
  readonly kind: ToolKind;
  /** Canonical name used by policies, tags and FSM bindings (`sprints.list`, `platform.users.create`). */
  readonly name: string;
  readonly title: string | undefined;
  readonly description: string | undefined;
  /** Frozen JSON Schema, exactly as listed. */
  readonly inputSchema: Readonly<JsonObjectSchema>;
  readonly outputSchema: Readonly<JsonObjectSchema> | undefined;
  readonly annotations: Readonly<ToolAnnotations>;
  readonly tags: readonly string[];
  readonly meta: Readonly<Record<string, unknown>> | undefined;
  readonly sync: InlineSyncDeclaration | undefined;
  readonly fsm: FsmBinding | undefined;
  readonly timeoutMs: number | undefined;
  readonly group: GroupMembership | undefined;
  /** OAuth scopes a principal must hold to see and call the tool (`.requireScopes()`); none when absent. */
  readonly requiredScopes?: readonly string[] | undefined;
  /** Calls allowed per principal per window (`.rateLimit()`), on top of the attach option `rateLimit`. */
  readonly rateLimit?: RateLimit | undefined;
  /** Set by `.task()`: the tool may run (or, `required`, runs only) as a task that outlives its request. */
  readonly task?: TaskDeclaration | undefined;
  /** Strict validation of raw arguments. */
  readonly validate: (args: unknown) => ValidationOutcome;
  /** The compiled middleware chain + handler + result shaping; rejects only with a `WireError` the handler threw. */
  readonly run: (input: Record<string, unknown>, ctx: Ctx, extra: HandlerExtra) => Promise<ToolResponse>;
  /** Optional presenter applied to the handler's data (suggestActions). */
  readonly presenter: unknown;
}

export type { CacheDirective };
