import type { Middleware, HandlerExtra, ToolHandler, ToolResponse } from '../../protocol/types.js';

/**
 * One action of a grouped tool as the build-time strategies see it: plain data, no zod, so that
 * grouped builders and fluent tools sharing a prefix go through the same strategies.
 */
export interface ActionSpec {
  /** The discriminator value: `users.create` in a grouped builder, `create` for `projects.create`. */
  readonly key: string;
  /** The action's own name (`create`). */
  readonly name: string;
  /** The group (module) it belongs to, if any (`users`). */
  readonly group: string | undefined;
  readonly description: string | undefined;
  /** JSON Schema of the action's own fields, without the common ones. */
  readonly properties: Readonly<Record<string, unknown>>;
  /** The action's own required fields, without the common ones. */
  readonly required: readonly string[];
  readonly readOnly: boolean;
  readonly destructive: boolean;
  readonly idempotent: boolean;
}

/** JSON Schema of the fields every action shares (a grouped builder's `commonSchema`). */
export interface FieldSet {
  readonly properties: Readonly<Record<string, unknown>>;
  readonly required: readonly string[];
}

/** A group (module) of a hierarchical grouped tool, in declaration order. */
export interface GroupSpec {
  readonly name: string;
  readonly description: string | undefined;
}

/** The encoder of `@toon-format/toon` (`encode`), or anything with its shape. */
export type ToonEncode = (value: unknown, options?: { delimiter?: ',' | '\t' | '|' }) => string;

/** One compiled chain: global middlewares → group middlewares → handler, result shaped, never throws. */
export type ChainFn<Ctx> = (input: Record<string, unknown>, ctx: Ctx, extra: HandlerExtra) => Promise<ToolResponse>;

/** What the middleware compiler needs of an action. */
export interface CompilableAction<Ctx> {
  readonly key: string;
  /** The action's group middlewares, outermost first. */
  readonly middlewares: readonly Middleware<Ctx>[];
  readonly handler: ToolHandler<Ctx, any>;
}
