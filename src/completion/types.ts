import type { HandlerExtra } from '../protocol/types.js';

/** What a completer knows besides the partial value: the other arguments (or template variables) already filled in. */
export interface CompletionContext {
  /** Values of the other arguments the client has already chosen, as strings. */
  readonly arguments: Readonly<Record<string, string>>;
}

/**
 * What a completer returns: the suggestions, best first, or the whole completion with the `total` number of
 * matches and whether there are more than were sent. At most 100 values reach the client (MCP's limit);
 * a longer list is cut and marked `hasMore`.
 */
export type CompletionReturn =
  | readonly string[]
  | { readonly values: readonly string[]; readonly total?: number; readonly hasMore?: boolean };

/**
 * `(value, context, ctx, extra)`: suggests values for one prompt argument or template variable from the
 * partial `value` the user typed. Registered with `.complete(name, fn)` on a prompt or resource template
 * builder; `completion/complete` calls it.
 */
export type Completer<Ctx> = (
  value: string,
  context: CompletionContext,
  ctx: Ctx,
  extra: HandlerExtra,
) => CompletionReturn | Promise<CompletionReturn>;

/** The `completion` object of a `completion/complete` result. */
export interface Completion {
  values: string[];
  total?: number;
  hasMore?: boolean;
}

/** An MCP `CompleteResult`. */
export interface CompleteResult {
  completion: Completion;
  [key: string]: unknown;
}
