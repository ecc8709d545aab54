import { z } from 'zod';
import { DefinitionError, FrozenBuilderError } from '../errors/FusionError.js';
import type { CacheDirective } from '../state-sync/types.js';
import { checkScopes } from '../auth/checkScopes.js';
import { checkRateLimit } from '../limits/checkRateLimit.js';
import type { RateLimit } from '../limits/types.js';
import { buildFusionTool, type ToolDefinitionInput } from './buildFusionTool.js';
import { checkBinding } from './checkBinding.js';
import { resolveInput, type Fields } from './resolveInput.js';
import { taskDeclaration, type TaskOptions } from './taskDeclaration.js';
import type {
  FusionTool,
  JsonObjectSchema,
  Middleware,
  ToolAnnotations,
  ToolHandler,
  ToolKind,
} from '../protocol/types.js';

type Simplify<T> = { [K in keyof T]: T[K] } & {};

interface FluentState<Ctx> extends Omit<ToolDefinitionInput<Ctx>, 'handler' | 'inputZod' | 'inputJson'> {
  readonly fields: Fields;
  readonly input: z.ZodType | JsonObjectSchema | undefined;
}

const DEFAULT_ANNOTATIONS: Record<ToolKind, ToolAnnotations> = {
  query: { readOnlyHint: true },
  action: { readOnlyHint: false, destructiveHint: false },
  mutation: { readOnlyHint: false, destructiveHint: true },
};

/**
 * The fluent builder behind `f.query`, `f.action` and `f.mutation`. Every step changes this builder and
 * returns it (its type narrowing as fields are added), so chained and unchained calls are the same:
 * `const b = f.query('x'); b.describe('…');` keeps the description. `.handle(fn)` returns the built
 * {@link FusionTool} and freezes the builder: any later change throws a `FrozenBuilderError`.
 * @see docs/tools.md
 */
export class FluentToolBuilder<Ctx, Input extends Record<string, unknown> = Record<never, never>> {
  #state: FluentState<Ctx>;
  #built = false;

  /** @internal use `f.query(name)`, `f.action(name)` or `f.mutation(name)`. */
  constructor(kind: ToolKind, name: string, middlewares: readonly Middleware<Ctx>[] = []) {
    this.#state = {
      kind,
      name,
      title: undefined,
      description: undefined,
      fields: {},
      input: undefined,
      outputZod: undefined,
      tags: [],
      annotations: DEFAULT_ANNOTATIONS[kind],
      meta: undefined,
      middlewares,
      sync: undefined,
      fsm: undefined,
      timeoutMs: undefined,
      presenter: undefined,
      group: undefined,
    };
  }

  /** The tool's description, as the model reads it. */
  describe(description: string): FluentToolBuilder<Ctx, Input> {
    return this.#next({ description });
  }

  /** A human-readable title (also sent as `annotations.title`). */
  title(title: string): FluentToolBuilder<Ctx, Input> {
    return this.#next({ title });
  }

  withString<K extends string>(
    name: K,
    description?: string,
  ): FluentToolBuilder<Ctx, Simplify<Input & { [P in K]: string }>> {
    return this.#field(name, z.string(), description);
  }
  withOptionalString<K extends string>(
    name: K,
    description?: string,
  ): FluentToolBuilder<Ctx, Simplify<Input & { [P in K]?: string }>> {
    return this.#field(name, z.string().optional(), description);
  }
  withNumber<K extends string>(
    name: K,
    description?: string,
  ): FluentToolBuilder<Ctx, Simplify<Input & { [P in K]: number }>> {
    return this.#field(name, z.number(), description);
  }
  withOptionalNumber<K extends string>(
    name: K,
    description?: string,
  ): FluentToolBuilder<Ctx, Simplify<Input & { [P in K]?: number }>> {
    return this.#field(name, z.number().optional(), description);
  }
  withBoolean<K extends string>(
    name: K,
    description?: string,
  ): FluentToolBuilder<Ctx, Simplify<Input & { [P in K]: boolean }>> {
    return this.#field(name, z.boolean(), description);
  }
  withOptionalBoolean<K extends string>(
    name: K,
    description?: string,
  ): FluentToolBuilder<Ctx, Simplify<Input & { [P in K]?: boolean }>> {
    return this.#field(name, z.boolean().optional(), description);
  }
  withEnum<K extends string, const V extends readonly [string, ...string[]]>(
    name: K,
    values: V,
    description?: string,
  ): FluentToolBuilder<Ctx, Simplify<Input & { [P in K]: V[number] }>> {
    return this.#field(name, z.enum(values), description);
  }
  withArray<K extends string, T extends 'string' | 'number' | 'boolean'>(
    name: K,
    itemType: T,
    description?: string,
  ): FluentToolBuilder<
    Ctx,
    Simplify<Input & { [P in K]: Array<T extends 'string' ? string : T extends 'number' ? number : boolean> }>
  > {
    const item = itemType === 'string' ? z.string() : itemType === 'number' ? z.number() : z.boolean();
    return this.#field(name, z.array(item), description);
  }

  /**
   * The whole input at once: a zod object (made strict), or a raw JSON Schema object (draft 2020-12)
   * that is listed unchanged and validated as written.
   */
  input<S extends z.ZodType<Record<string, unknown>>>(schema: S): FluentToolBuilder<Ctx, Simplify<Input & z.input<S>>>;
  input(schema: JsonObjectSchema): FluentToolBuilder<Ctx, Input & Record<string, unknown>>;
  input(schema: z.ZodType | JsonObjectSchema): FluentToolBuilder<Ctx, any> {
    return this.#next({ input: schema });
  }

  /** A zod schema for `structuredContent`; listed as `outputSchema`. */
  output(schema: z.ZodType): FluentToolBuilder<Ctx, Input> {
    return this.#next({ outputZod: schema });
  }

  /** Tags for registry filters (`filter: { tags, exclude }`). */
  tags(...tags: string[]): FluentToolBuilder<Ctx, Input> {
    return this.#next({ tags: [...this.#state.tags, ...tags] });
  }

  /** Overrides the default annotations (query ⇒ readOnlyHint, mutation ⇒ destructiveHint). */
  annotations(annotations: ToolAnnotations): FluentToolBuilder<Ctx, Input> {
    return this.#next({ annotations: { ...this.#state.annotations, ...annotations } });
  }

  /** Extra `_meta` listed with the tool. */
  meta(meta: Record<string, unknown>): FluentToolBuilder<Ctx, Input> {
    return this.#next({ meta: { ...this.#state.meta, ...meta } });
  }

  /** Adds a middleware; middlewares run in the order they were added, around the handler. */
  use(middleware: Middleware<Ctx>): FluentToolBuilder<Ctx, Input> {
    return this.#next({ middlewares: [...this.#state.middlewares, middleware] });
  }

  /** State Sync: the data never changes (`[Cache-Control: immutable]`). */
  cached(): FluentToolBuilder<Ctx, Input> {
    return this.#sync('immutable');
  }

  /** State Sync: the data may change at any time (`[Cache-Control: no-store]`). */
  stale(): FluentToolBuilder<Ctx, Input> {
    return this.#sync('no-store');
  }

  /** State Sync: a successful call invalidates these domains (globs such as `sprints.*`). */
  invalidates(...patterns: string[]): FluentToolBuilder<Ctx, Input> {
    if (patterns.length === 0) {
      throw new DefinitionError(
        'STATE_SYNC_INLINE',
        `Tool "${this.#state.name}" calls .invalidates() with no pattern; pass at least one glob such as "sprints.*".`,
        { tool: this.#state.name },
      );
    }
    return this.#next({
      sync: { ...this.#state.sync, invalidates: [...(this.#state.sync?.invalidates ?? []), ...patterns] },
    });
  }

  /**
   * FSM gate: visible only in `states`; a successful call sends `event` to the machine. `'*'` joins the
   * workflow in every state without moving it (a reader such as `cart.view`): it gets `extra.workflow` (the
   * session in the legacy era, the instance named by its handle argument in the modern era), never starts
   * an instance and may read a finished one.
   * @example f.query('cart.view').bindState('*').handle((_input, ctx, extra) => ctx.db.cart(extra.workflow!.key))
   */
  bindState(states: string | string[], event?: string): FluentToolBuilder<Ctx, Input> {
    return this.#next({ fsm: checkBinding(this.#state.name, states, event) });
  }

  /** Per-tool timeout in milliseconds (the attach option `timeoutMs` is the default). */
  timeout(ms: number): FluentToolBuilder<Ctx, Input> {
    if (!Number.isFinite(ms) || ms <= 0) {
      throw new DefinitionError(
        'TOOL_TIMEOUT',
        `Tool "${this.#state.name}" has timeout ${ms}; give a positive number of milliseconds.`,
        { tool: this.#state.name },
      );
    }
    return this.#next({ timeoutMs: ms });
  }

  /**
   * OAuth scopes a principal must hold: without every one of them the tool is absent from its `tools/list`,
   * and calling it answers `insufficient_scope` naming the missing scopes (HTTP 403 with a scope challenge).
   * @see docs/security.md#scopes
   */
  requireScopes(...scopes: [string, ...string[]]): FluentToolBuilder<Ctx, Input> {
    const required = checkScopes(scopes, `Tool "${this.#state.name}"`);
    return this.#next({ requiredScopes: [...new Set([...(this.#state.requiredScopes ?? []), ...required])] });
  }

  /**
   * At most `max` calls per principal in each `windowMs` (per session without authentication); further
   * calls are refused with the time to wait. Counts in the attach option `rateLimitStore` (memory by default).
   * @see docs/security.md#rate-limits
   */
  rateLimit(limit: RateLimit): FluentToolBuilder<Ctx, Input> {
    return this.#next({ rateLimit: checkRateLimit(limit, `Tool "${this.#state.name}"`) });
  }

  /**
   * Lets the tool run as a task that outlives its request (MCP tasks, both eras): a client that supports
   * tasks gets a task id at once and polls for the result; any other gets the plain result (`optional`, the
   * default) or an error saying a task-capable client is needed (`required`). The handler is written as
   * usual: `extra.progress(...)` becomes the task's status message, `extra.elicit(...)` asks the client
   * through the task (`input_required`), and `extra.signal` aborts when the task is cancelled.
   * @example f.action('reports.generate').task({ ttlMs: 600_000 }).handle(async (input, ctx, extra) => …)
   * @see docs/tasks.md
   */
  task(options?: TaskOptions): FluentToolBuilder<Ctx, Input> {
    return this.#next({ task: taskDeclaration(options, `Tool "${this.#state.name}"`) });
  }

  /** A presenter that validates the handler's data and appends suggested next actions. */
  returns(presenter: unknown): FluentToolBuilder<Ctx, Input> {
    return this.#next({ presenter });
  }

  /** Sets the handler and returns the built, frozen tool. */
  handle(handler: ToolHandler<Ctx, Input>): FusionTool<Ctx> {
    this.#assertOpen('handle');
    this.#built = true;
    const { fields, input, ...rest } = this.#state;
    const schemas = resolveInput(rest.name, fields, input);
    return buildFusionTool<Ctx>({ ...rest, ...schemas, handler: handler as ToolHandler<Ctx, any> });
  }

  #field(name: string, schema: z.ZodType, description?: string): FluentToolBuilder<Ctx, any> {
    if (name in this.#state.fields) {
      throw new DefinitionError(
        'TOOL_SCHEMA',
        `Tool "${this.#state.name}" declares the field "${name}" twice; remove one of them.`,
        { tool: this.#state.name, field: name },
      );
    }
    const described = description === undefined ? schema : schema.describe(description);
    return this.#next({ fields: { ...this.#state.fields, [name]: described } });
  }

  #sync(cacheControl: CacheDirective): FluentToolBuilder<Ctx, Input> {
    return this.#next({ sync: { ...this.#state.sync, cacheControl } });
  }

  #next(patch: Partial<FluentState<Ctx>>): FluentToolBuilder<Ctx, any> {
    this.#assertOpen('change');
    this.#state = { ...this.#state, ...patch };
    return this;
  }

  #assertOpen(what: string): void {
    if (this.#built) {
      throw new FrozenBuilderError(
        'BUILDER_FROZEN',
        `Tool "${this.#state.name}" is already built (.handle() was called); cannot ${what} it. Builders are frozen once built: start a new builder with f.${this.#state.kind}("${this.#state.name}") instead.`,
        { tool: this.#state.name },
      );
    }
  }
}
