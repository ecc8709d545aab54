import type { z } from 'zod';
import { addCompleter } from '../completion/completers.js';
import type { Completer } from '../completion/types.js';
import type { Icon, WirePromptArgument } from '../domain/types.js';
import { checkScopes } from '../auth/checkScopes.js';
import { DefinitionError, FrozenBuilderError } from '../errors/FusionError.js';
import { buildFusionPrompt, type PromptDefinitionInput } from './buildFusionPrompt.js';
import type { FusionPrompt, PromptHandler } from './types.js';

type Simplify<T> = { [K in keyof T]: T[K] } & {};
type PromptState = Omit<PromptDefinitionInput<unknown>, 'handler'>;

/** Options of {@link PromptBuilder.argument}. */
export interface PromptArgumentConfig<R extends boolean = boolean> {
  description?: string;
  /** The client must supply it (default false). */
  required?: R;
}

/**
 * The fluent builder behind `f.prompt(name)`. Every step returns a new builder; `.handle(fn)` returns
 * the built, frozen {@link FusionPrompt}, after which this builder refuses changes.
 * @example
 * const review = f.prompt('code_review')
 *   .describe('Review a piece of code')
 *   .argument('code', { description: 'The code', required: true })
 *   .handle(({ code }) => `Please review:\n${code}`);
 * @see docs/prompts-and-resources.md
 */
export class PromptBuilder<Ctx, Args extends Record<string, unknown> = Record<never, never>> {
  #state: PromptState;
  #built = false;

  /** @internal use `f.prompt(name)`. */
  constructor(name: string, state?: PromptState) {
    this.#state = state ?? {
      name,
      title: undefined,
      description: undefined,
      arguments: [],
      schema: undefined,
      icons: undefined,
      meta: undefined,
      completers: new Map(),
    };
  }

  /** What the prompt is for, as clients list it. */
  describe(description: string): PromptBuilder<Ctx, Args> {
    return this.#next({ description });
  }

  /** A human-readable title. */
  title(title: string): PromptBuilder<Ctx, Args> {
    return this.#next({ title });
  }

  /** Declares one string argument; `required: true` makes `prompts/get` refuse a call without it. */
  argument<K extends string, R extends boolean = false>(
    name: K,
    config: PromptArgumentConfig<R> = {},
  ): PromptBuilder<Ctx, Simplify<Args & (R extends true ? { [P in K]: string } : { [P in K]?: string })>> {
    const prompt = this.#state.name;
    if (this.#state.schema !== undefined) {
      throw new DefinitionError(
        'PROMPT_ARGUMENT',
        `Prompt "${prompt}" declares "${name}" with .argument() after .args(); put every argument in the .args() schema or use .argument() only.`,
        { prompt, argument: name },
      );
    }
    if (typeof name !== 'string' || name.length === 0) {
      throw new DefinitionError(
        'PROMPT_ARGUMENT',
        `Prompt "${prompt}" declares an argument without a name; give .argument() a name such as "topic".`,
        { prompt },
      );
    }
    if (this.#state.arguments.some((a) => a.name === name)) {
      throw new DefinitionError(
        'PROMPT_ARGUMENT',
        `Prompt "${prompt}" declares the argument "${name}" twice; remove one of them.`,
        { prompt, argument: name },
      );
    }
    const argument: WirePromptArgument = { name, required: config.required === true };
    if (config.description !== undefined) argument.description = config.description;
    return this.#next({ arguments: [...this.#state.arguments, argument] });
  }

  /**
   * All arguments at once as a zod object: each field is one listed argument (required unless optional,
   * described by `.describe()`), and the handler receives the parsed output. Values arrive as strings,
   * so use `z.coerce.number()` and the like for other types.
   */
  args<S extends z.ZodObject>(schema: S): PromptBuilder<Ctx, z.output<S>> {
    const prompt = this.#state.name;
    if (typeof (schema as { shape?: unknown } | undefined)?.shape !== 'object') {
      throw new DefinitionError(
        'PROMPT_ARGUMENT',
        `Prompt "${prompt}" passes .args() something that is not a zod object; use z.object({ ... }).`,
        { prompt },
      );
    }
    if (this.#state.arguments.length > 0 || this.#state.schema !== undefined) {
      throw new DefinitionError(
        'PROMPT_ARGUMENT',
        `Prompt "${prompt}" declares its arguments twice (.args() with ${this.#state.schema !== undefined ? 'another .args()' : '.argument()'}); use a single .args() schema or .argument() only.`,
        { prompt },
      );
    }
    return this.#next({ schema });
  }

  /** Icons clients may show. */
  icons(...icons: Icon[]): PromptBuilder<Ctx, Args> {
    return this.#next({ icons: [...(this.#state.icons ?? []), ...icons] });
  }

  /**
   * OAuth scopes a principal must hold to see this prompt in its list and to get it (refused with
   * `insufficient_scope` naming the missing scopes otherwise).
   * @see docs/security.md#scopes
   */
  requireScopes(...scopes: [string, ...string[]]): PromptBuilder<Ctx, Args> {
    return this.#next({
      requiredScopes: [
        ...new Set([...(this.#state.requiredScopes ?? []), ...checkScopes(scopes, `Prompt "${this.#state.name}"`)]),
      ],
    });
  }

  /** Extra `_meta` listed with the prompt. */
  meta(meta: Record<string, unknown>): PromptBuilder<Ctx, Args> {
    return this.#next({ meta: { ...this.#state.meta, ...meta } });
  }

  /**
   * Suggests values for one argument as the user types (`completion/complete` with a `ref/prompt`): the
   * completer gets the partial value and the arguments chosen so far, and returns suggestions, best first.
   * Declaring one makes the server offer the `completions` capability.
   * @example
   * f.prompt('weather').argument('city', { required: true })
   *   .complete('city', (value) => CITIES.filter((c) => c.startsWith(value)))
   *   .handle(({ city }) => `What is the weather in ${city}?`);
   * @see docs/prompts-and-resources.md#completion
   */
  complete<K extends Extract<keyof Args, string>>(name: K, completer: Completer<Ctx>): PromptBuilder<Ctx, Args> {
    const completers = addCompleter(
      this.#state.completers as ReadonlyMap<string, Completer<Ctx>>,
      name,
      completer,
      `Prompt "${this.#state.name}"`,
    );
    return this.#next({ completers: completers as ReadonlyMap<string, Completer<unknown>> });
  }

  /** Sets the handler and returns the built, frozen prompt. */
  handle(handler: PromptHandler<Ctx, Args>): FusionPrompt<Ctx> {
    this.#assertOpen('handle');
    this.#built = true;
    return buildFusionPrompt<Ctx>({ ...this.#state, handler: handler as PromptHandler<Ctx, any> });
  }

  #next(patch: Partial<PromptState>): PromptBuilder<Ctx, any> {
    this.#assertOpen('change');
    return new PromptBuilder<Ctx, any>(this.#state.name, { ...this.#state, ...patch });
  }

  #assertOpen(what: string): void {
    if (this.#built) {
      throw new FrozenBuilderError(
        'BUILDER_FROZEN',
        `Prompt "${this.#state.name}" is already built; cannot ${what} it. Start a new builder with f.prompt("${this.#state.name}") instead.`,
        { prompt: this.#state.name },
      );
    }
  }
}
