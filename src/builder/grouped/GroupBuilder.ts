import { DefinitionError, FrozenBuilderError } from '../../errors/FusionError.js';
import type { Middleware } from '../../protocol/types.js';
import { toActionDef } from './toActionDef.js';
import type { ActionConfig, ActionDef, ZodObjectSchema } from './types.js';

/** @internal what a group hands back to its tool builder. */
export interface GroupState<Ctx> {
  readonly tool: string;
  readonly name: string;
  readonly middlewares: readonly Middleware<Ctx>[];
  readonly actions: readonly ActionDef<Ctx>[];
}

/** @internal */
export const closeGroup: unique symbol = Symbol('mcp-fusion.closeGroup');

/**
 * The builder passed to `.group(name, description, g => …)`: group middlewares and actions.
 * Like the tool builder, each call changes this group and returns it; chain or not, nothing is lost.
 * @see docs/grouped-tools.md
 */
export class GroupBuilder<Ctx, Common = Record<never, never>> {
  #state: GroupState<Ctx>;
  #closed = false;

  /** @internal created by `.group()`. */
  constructor(state: GroupState<Ctx>) {
    this.#state = state;
  }

  /** A middleware for every action of this group, inside the tool's own middlewares. */
  use(middleware: Middleware<Ctx>): GroupBuilder<Ctx, Common> {
    this.#assertOpen('add a middleware');
    if (typeof middleware !== 'function') {
      throw new DefinitionError(
        'TOOL_MIDDLEWARE',
        `Group "${this.#state.name}" of tool "${this.#state.tool}" got ${String(middleware)} in .use(); pass a function (ctx, args, next, extra) => ….`,
        { tool: this.#state.tool, group: this.#state.name },
      );
    }
    this.#state = { ...this.#state, middlewares: [...this.#state.middlewares, middleware] };
    return this;
  }

  /** Adds an action whose key is `<group>.<name>`. */
  action<S extends ZodObjectSchema | undefined = undefined>(
    config: ActionConfig<Ctx, Common, S>,
  ): GroupBuilder<Ctx, Common> {
    this.#assertOpen('add an action');
    const def = toActionDef(this.#state.tool, { name: this.#state.name, middlewares: [] }, config);
    if (this.#state.actions.some((a) => a.key === def.key)) {
      throw new DefinitionError(
        'TOOL_ACTION',
        `Tool "${this.#state.tool}" declares the action "${def.key}" twice; remove one of them or rename it.`,
        { tool: this.#state.tool, action: def.key },
      );
    }
    this.#state = { ...this.#state, actions: [...this.#state.actions, def] };
    return this;
  }

  /** @internal called by `.group()` when its callback returns: the group's state, after which it is frozen. */
  [closeGroup](): GroupState<Ctx> {
    this.#closed = true;
    return this.#state;
  }

  #assertOpen(what: string): void {
    if (!this.#closed) return;
    const { tool, name } = this.#state;
    throw new FrozenBuilderError(
      'BUILDER_FROZEN',
      `Group "${name}" of tool "${tool}" is closed (its .group() callback returned); cannot ${what}. Add every action of the group inside its callback.`,
      { tool, group: name },
    );
  }
}
