import { DefinitionError } from '../../errors/FusionError.js';
import type { Middleware } from '../types.js';
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
export const groupState: unique symbol = Symbol('mcp-fusion.groupState');

/**
 * The builder passed to `.group(name, description, g => …)`: group middlewares and actions.
 * Immutable like the tool builder: return the chained builder from the callback.
 * @see docs/grouped-tools.md
 */
export class GroupBuilder<Ctx, Common = Record<never, never>> {
  readonly #state: GroupState<Ctx>;

  /** @internal created by `.group()`. */
  constructor(state: GroupState<Ctx>) {
    this.#state = state;
  }

  /** A middleware for every action of this group, inside the tool's own middlewares. */
  use(middleware: Middleware<Ctx>): GroupBuilder<Ctx, Common> {
    if (typeof middleware !== 'function') {
      throw new DefinitionError('TOOL_MIDDLEWARE', `Group "${this.#state.name}" of tool "${this.#state.tool}" got ${String(middleware)} in .use(); pass a function (ctx, args, next, extra) => ….`, { tool: this.#state.tool, group: this.#state.name });
    }
    return new GroupBuilder({ ...this.#state, middlewares: [...this.#state.middlewares, middleware] });
  }

  /** Adds an action whose key is `<group>.<name>`. */
  action<S extends ZodObjectSchema | undefined = undefined>(config: ActionConfig<Ctx, Common, S>): GroupBuilder<Ctx, Common> {
    const def = toActionDef(this.#state.tool, { name: this.#state.name, middlewares: [] }, config);
    if (this.#state.actions.some((a) => a.key === def.key)) {
      throw new DefinitionError('TOOL_ACTION', `Tool "${this.#state.tool}" declares the action "${def.key}" twice; remove one of them or rename it.`, { tool: this.#state.tool, action: def.key });
    }
    return new GroupBuilder({ ...this.#state, actions: [...this.#state.actions, def] });
  }

  /** @internal */
  get [groupState](): GroupState<Ctx> {
    return this.#state;
  }
}
