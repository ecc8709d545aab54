import type { ContentBlock, InputRequiredReturn, HandlerExtra } from '../protocol/types.js';
import type { Completer } from '../completion/types.js';
import type { Icon, WirePrompt, WirePromptArgument } from '../domain/types.js';

/** Who speaks a prompt message. */
export type PromptRole = 'user' | 'assistant';

/** One message of a prompt (MCP `PromptMessage`): text, image, audio, an embedded resource or a resource link. */
export interface PromptMessage {
  role: PromptRole;
  content: ContentBlock;
}

/** An MCP `GetPromptResult`, the plain shape every `prompts/get` resolves to. */
export interface GetPromptResult {
  description?: string;
  messages: PromptMessage[];
  _meta?: Record<string, unknown>;
  [key: string]: unknown;
}

/** A message as a handler may write it: a string is a user text message, and `content` may be a plain string. */
export type PromptMessageInput = string | PromptMessage | { role: PromptRole; content: string };

/** A whole `GetPromptResult` as a handler may write it: messages may use the short forms. */
export interface PromptResultInput {
  description?: string;
  messages: readonly PromptMessageInput[];
  _meta?: Record<string, unknown>;
}

/**
 * What a prompt handler may return: one user text, a list of messages, the whole result, or an
 * `inputRequired(...)` return asking the client for input first (passed through untouched).
 */
export type PromptReturn = string | readonly PromptMessageInput[] | PromptResultInput | InputRequiredReturn;

/** `(args, ctx, extra)`: `args` are the validated arguments (strings, or what the `.args()` schema made of them). */
export type PromptHandler<Ctx, Args> = (
  args: Args,
  ctx: Ctx,
  extra: HandlerExtra,
) => PromptReturn | Promise<PromptReturn>;

/** The outcome of checking the arguments of a `prompts/get`. */
export type PromptArgsOutcome =
  | { readonly ok: true; readonly value: Record<string, unknown> }
  | { readonly ok: false; readonly message: string };

/**
 * A built, frozen prompt: its `prompts/list` entry and its `prompts/get` behaviour, computed once.
 * Produced by `f.prompt(name)…handle(fn)`; register it with `registry.register(prompt)`.
 */
export interface FusionPrompt<Ctx = any> {
  readonly kind: 'prompt';
  readonly name: string;
  readonly title: string | undefined;
  readonly description: string | undefined;
  readonly arguments: readonly Readonly<WirePromptArgument>[];
  readonly icons: readonly Readonly<Icon>[] | undefined;
  readonly meta: Readonly<Record<string, unknown>> | undefined;
  /** OAuth scopes a principal must hold to list and get the prompt (`.requireScopes()`). */
  readonly requiredScopes?: readonly string[] | undefined;
  /** Frozen, exactly as listed. */
  readonly definition: Readonly<WirePrompt>;
  /** Checks raw `prompts/get` arguments: required present, no unknown names, strings, then the `.args()` schema. */
  readonly validate: (args: unknown) => PromptArgsOutcome;
  /** Completers by argument name (`.complete()`), for `completion/complete`. */
  readonly completers: ReadonlyMap<string, Completer<Ctx>>;
  /** Runs the handler on validated arguments and shapes its return into a `GetPromptResult`; throws on a bad return. */
  readonly run: (args: Record<string, unknown>, ctx: Ctx, extra: HandlerExtra) => Promise<GetPromptResult>;
}
