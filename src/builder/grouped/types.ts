import type { z } from 'zod';
import type { ActionSpec, FieldSet, GroupSpec, ToonEncode } from '../strategies/types.js';
import type { RateLimit } from '../../limits/types.js';
import type { Middleware, ToolHandler } from '../../protocol/types.js';

type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** A zod object schema (the shape of an action's own fields or of the common fields). */
export type ZodObjectSchema = z.ZodObject<any>;

/** The input a handler receives: the common fields and the action's own, validated. */
export type ActionInput<Common, S extends ZodObjectSchema | undefined> = S extends ZodObjectSchema
  ? Simplify<Common & z.output<S>>
  : Simplify<Common>;

/** One action of a grouped tool: `.action({ name, description, schema, readOnly, destructive, idempotent, handler })`. */
export interface ActionConfig<Ctx, Common, S extends ZodObjectSchema | undefined = undefined> {
  /** Letters, digits, `_` and `-`; in a group, the key becomes `<group>.<name>`. */
  name: string;
  description?: string;
  /** The action's own fields; merged with the tool's `commonSchema` and validated strictly. */
  schema?: S;
  /** Changes nothing (`readOnlyHint`). */
  readOnly?: boolean;
  /** May destroy data (`destructiveHint`, `[DESTRUCTIVE]` in the description). */
  destructive?: boolean;
  /** Repeating the call has no further effect (`idempotentHint`). */
  idempotent?: boolean;
  /** OAuth scopes a principal must hold to see and call this action (it is left out of the enum otherwise). */
  requireScopes?: readonly string[];
  /** Calls of this action allowed per principal per window. */
  rateLimit?: RateLimit;
  /** `(input, ctx, extra)`, like a fluent tool's handler. */
  handler: ToolHandler<Ctx, ActionInput<Common, S>>;
}

/** What introspection tells about one action. */
export interface ActionMetadata {
  /** The discriminator value (`users.create`). */
  readonly key: string;
  /** The canonical name used by policies, FSM bindings and tags (`platform.users.create`). */
  readonly canonicalName: string;
  readonly name: string;
  readonly group: string | undefined;
  readonly description: string | undefined;
  readonly readOnly: boolean;
  readonly destructive: boolean;
  readonly idempotent: boolean;
  /** Every field the action requires, common ones first. */
  readonly requiredFields: readonly string[];
}

/** Options of `.toonDescription()`. */
export interface ToonOptions {
  /**
   * `encode` from `@toon-format/toon`. Without it the package is loaded synchronously when the tool is
   * built, which needs Node ≥ 20.19; pass it on older runtimes or bundlers.
   */
  encode?: ToonEncode;
}

/** An action as a builder stores it, checked and frozen. */
export interface ActionDef<Ctx> {
  readonly key: string;
  readonly name: string;
  readonly group: string | undefined;
  readonly description: string | undefined;
  readonly schema: ZodObjectSchema | undefined;
  readonly readOnly: boolean;
  readonly destructive: boolean;
  readonly idempotent: boolean;
  /** The group's middlewares (empty for ungrouped actions). */
  readonly middlewares: readonly Middleware<Ctx>[];
  readonly requiredScopes?: readonly string[] | undefined;
  readonly rateLimit?: RateLimit | undefined;
  readonly handler: ToolHandler<Ctx, any>;
}

/** Everything the strategies need to describe a grouped tool; frozen when the builder is built. */
export interface GroupedToolSpec {
  readonly name: string;
  readonly description: string | undefined;
  readonly discriminator: string;
  readonly common: FieldSet | undefined;
  readonly defs: Readonly<Record<string, unknown>> | undefined;
  readonly groups: readonly GroupSpec[];
  readonly actions: readonly ActionSpec[];
  readonly perActionSchemas: boolean;
  /** Set when the tool opted into TOON descriptions. */
  readonly toon: ToonEncode | undefined;
}
