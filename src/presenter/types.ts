import type { z } from 'zod';

/** One hint for the agent: a tool worth calling next, and why. */
export interface SuggestedAction {
  readonly tool: string;
  readonly reason: string;
}

/** Computes the suggested next actions from the (validated) data a handler returned. */
export type SuggestActions<T> = (data: T) => readonly SuggestedAction[];

/** A built, frozen presenter: how a tool's data is validated and which next actions it suggests. */
export interface Presenter<T = unknown> {
  readonly name: string;
  readonly schema: z.ZodType<T> | undefined;
  readonly suggest: SuggestActions<T> | undefined;
}

/** Options of `presentResult` and `filterSuggestions`. */
export interface PresentOptions {
  /** The tool being presented, named in error texts. */
  readonly tool?: string;
  /** How a declared tool name is shown to the agent (e.g. the exposed name under `nameStyle`). */
  readonly displayName?: (tool: string) => string;
}
