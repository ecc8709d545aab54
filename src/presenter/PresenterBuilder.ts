import type { z } from 'zod';
import { DefinitionError } from '../errors/FusionError.js';
import type { Presenter, SuggestActions } from './types.js';

const built = new WeakSet<object>();

/**
 * The immutable builder behind {@link createPresenter}: every step returns a new builder, `build()`
 * returns the frozen {@link Presenter}. Pass either to a tool's `.returns()`.
 * @see docs/fsm-state-gate.md
 */
export class PresenterBuilder<T = unknown> {
  readonly #def: Presenter<T>;
  #frozen: Presenter<T> | undefined;

  /** @internal use `createPresenter(name)`. */
  constructor(def: Presenter<T>) {
    this.#def = def;
  }

  /** Validates the handler's data with a zod schema; the parsed value is what the agent sees. */
  schema<S extends z.ZodType>(schema: S): PresenterBuilder<z.output<S>> {
    if (typeof (schema as { safeParse?: unknown } | null)?.safeParse !== 'function') {
      throw new DefinitionError(
        'PRESENTER_SCHEMA',
        `Presenter "${this.#def.name}" got a schema that is not a zod schema; pass one such as z.object({ id: z.string() }).`,
        { presenter: this.#def.name },
      );
    }
    if (this.#def.suggest !== undefined) {
      throw new DefinitionError(
        'PRESENTER_ORDER',
        `Presenter "${this.#def.name}" sets .schema() after .suggestActions(); call .schema() first so suggestActions receives the validated data.`,
        { presenter: this.#def.name },
      );
    }
    return new PresenterBuilder<z.output<S>>({
      name: this.#def.name,
      schema: schema as unknown as z.ZodType<z.output<S>>,
      suggest: undefined,
    });
  }

  /** Suggests next tools from the data; suggestions of tools hidden in the session's state are left out. */
  suggestActions(suggest: SuggestActions<T>): PresenterBuilder<T> {
    if (typeof suggest !== 'function') {
      throw new DefinitionError(
        'PRESENTER_SUGGEST',
        `Presenter "${this.#def.name}" got a non-function in .suggestActions(); pass (data) => [{ tool, reason }].`,
        { presenter: this.#def.name },
      );
    }
    return new PresenterBuilder<T>({ ...this.#def, suggest });
  }

  /** The frozen presenter (the same object on every call). */
  build(): Presenter<T> {
    if (this.#frozen === undefined) {
      this.#frozen = Object.freeze({ ...this.#def });
      built.add(this.#frozen);
    }
    return this.#frozen;
  }
}

/**
 * A presenter for a tool's data: `.schema(zod)` validates it, `.suggestActions(fn)` adds HATEOAS hints.
 * @example
 * const cartItem = createPresenter('CartItem')
 *   .schema(z.object({ id: z.string() }))
 *   .suggestActions(() => [{ tool: 'cart.checkout', reason: 'Ready to pay?' }]);
 * @see docs/fsm-state-gate.md
 */
export function createPresenter(name: string): PresenterBuilder<unknown> {
  if (typeof name !== 'string' || name.trim() === '') {
    throw new DefinitionError(
      'PRESENTER_NAME',
      'createPresenter() needs a name, such as createPresenter("CartItem"); it is shown in validation errors.',
    );
  }
  return new PresenterBuilder<unknown>({ name, schema: undefined, suggest: undefined });
}

/** The built presenter behind a `.returns()` value; anything else throws, naming the tool. */
export function resolvePresenter(value: unknown, tool: string): Presenter {
  if (value instanceof PresenterBuilder) return value.build() as Presenter;
  if (typeof value === 'object' && value !== null && built.has(value)) return value as Presenter;
  throw new DefinitionError(
    'PRESENTER',
    `Tool "${tool}" passes something that is not a presenter to .returns(); pass createPresenter("Name").schema(...) or its .build().`,
    { tool },
  );
}
