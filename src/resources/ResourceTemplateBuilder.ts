import { addCompleter } from '../completion/completers.js';
import type { Completer } from '../completion/types.js';
import type { Icon, ResourceAnnotations } from '../domain/types.js';
import { checkScopes } from '../auth/checkScopes.js';
import { DefinitionError, FrozenBuilderError } from '../errors/FusionError.js';
import { buildResourceTemplate, type ResourceTemplateDefinitionInput } from './buildResourceTemplate.js';
import type { FusionResourceTemplate, TemplateHandler, TemplateLister, TemplateVariables } from './types.js';

type TemplateState<Ctx> = Omit<ResourceTemplateDefinitionInput<Ctx>, 'handler'>;

/**
 * The fluent builder behind `f.resourceTemplate(template)`: a family of resources addressed by an
 * RFC 6570 level-1 URI template (`app://items/{id}`). The handler receives the decoded variables, typed
 * from the template literal. Every step returns a new builder; `.handle(fn)` returns the built, frozen
 * {@link FusionResourceTemplate}.
 * @example
 * const item = f.resourceTemplate('app://items/{id}')
 *   .mimeType('application/json')
 *   .list(async (ctx) => (await ctx.db.items()).map((i) => ({ uri: `app://items/${i.id}`, name: i.title })))
 *   .handle(async (_uri, { id }, ctx) => JSON.stringify(await ctx.db.item(id)));
 * @see docs/prompts-and-resources.md
 */
export class ResourceTemplateBuilder<Ctx, T extends string = string> {
  #state: TemplateState<Ctx>;
  #built = false;

  /** @internal use `f.resourceTemplate(template)`. */
  constructor(uriTemplate: T, state?: TemplateState<Ctx>) {
    this.#state = state ?? {
      uriTemplate,
      name: undefined,
      title: undefined,
      description: undefined,
      mimeType: undefined,
      annotations: undefined,
      icons: undefined,
      meta: undefined,
      reflects: [],
      lister: undefined,
      completers: new Map(),
    };
  }

  /** The listed name (defaults to the template). */
  name(name: string): ResourceTemplateBuilder<Ctx, T> {
    return this.#next({ name });
  }

  /** What the resources hold, as clients list it. */
  describe(description: string): ResourceTemplateBuilder<Ctx, T> {
    return this.#next({ description });
  }

  /** A human-readable title. */
  title(title: string): ResourceTemplateBuilder<Ctx, T> {
    return this.#next({ title });
  }

  /** The MIME type listed and set on read contents that name none. */
  mimeType(mimeType: string): ResourceTemplateBuilder<Ctx, T> {
    return this.#next({ mimeType });
  }

  /** Audience, priority (0–1) and last-modified hints. */
  annotations(annotations: ResourceAnnotations): ResourceTemplateBuilder<Ctx, T> {
    return this.#next({ annotations: { ...this.#state.annotations, ...annotations } });
  }

  /** Icons clients may show. */
  icons(...icons: Icon[]): ResourceTemplateBuilder<Ctx, T> {
    return this.#next({ icons: [...(this.#state.icons ?? []), ...icons] });
  }

  /** Extra `_meta` listed with the template. */
  meta(meta: Record<string, unknown>): ResourceTemplateBuilder<Ctx, T> {
    return this.#next({ meta: { ...this.#state.meta, ...meta } });
  }

  /**
   * OAuth scopes a principal must hold to see this resource in its list, read, subscribe to or complete it.
   * To a token without them it does not exist: every answer is the one a missing URI gets ("Resource not
   * found"), so that a URI, which can name data, cannot be probed. (Tools and prompts answer
   * `insufficient_scope` instead: their names are the server's declared surface, and the challenge lets a
   * client ask for the scope.)
   * @see docs/security.md#scopes
   */
  requireScopes(...scopes: [string, ...string[]]): ResourceTemplateBuilder<Ctx> {
    return this.#next({
      requiredScopes: [
        ...new Set([
          ...(this.#state.requiredScopes ?? []),
          ...checkScopes(scopes, `Resource template "${this.#state.uriTemplate}"`),
        ]),
      ],
    });
  }

  /** The tool domains whose data these resources mirror (globs such as `sprints.*`), kept for State Sync. */
  reflects(...globs: string[]): ResourceTemplateBuilder<Ctx, T> {
    return this.#next({ reflects: [...this.#state.reflects, ...globs] });
  }

  /** Enumerates the concrete resources of this template; `resources/list` includes them. */
  list(lister: TemplateLister<Ctx>): ResourceTemplateBuilder<Ctx, T> {
    if (typeof lister !== 'function') {
      throw new DefinitionError(
        'RESOURCE_TEMPLATE',
        `Resource template "${this.#state.uriTemplate}" passes .list() something that is not a function; pass (ctx, extra) => [{ uri, name }].`,
        { uriTemplate: this.#state.uriTemplate },
      );
    }
    return this.#next({ lister });
  }

  /**
   * Suggests values for one `{variable}` of the template as the user types (`completion/complete` with a
   * `ref/resource` naming this template): the completer gets the partial value and the variables chosen
   * so far. Declaring one makes the server offer the `completions` capability.
   * @example
   * f.resourceTemplate('app://items/{id}')
   *   .complete('id', async (value, _context, ctx) => (await ctx.db.itemIds()).filter((id) => id.startsWith(value)))
   *   .handle(async (_uri, { id }, ctx) => JSON.stringify(await ctx.db.item(id)));
   * @see docs/prompts-and-resources.md#completion
   */
  complete(
    variable: Extract<keyof TemplateVariables<T>, string>,
    completer: Completer<Ctx>,
  ): ResourceTemplateBuilder<Ctx, T> {
    return this.#next({
      completers: addCompleter(
        this.#state.completers,
        variable,
        completer,
        `Resource template "${this.#state.uriTemplate}"`,
      ),
    });
  }

  /** Sets the handler and returns the built, frozen template. */
  handle(handler: TemplateHandler<Ctx, TemplateVariables<T>>): FusionResourceTemplate<Ctx> {
    this.#assertOpen('handle');
    this.#built = true;
    return buildResourceTemplate<Ctx>({ ...this.#state, handler: handler as TemplateHandler<Ctx, any> });
  }

  #next(patch: Partial<TemplateState<Ctx>>): ResourceTemplateBuilder<Ctx, T> {
    this.#assertOpen('change');
    return new ResourceTemplateBuilder<Ctx, T>(this.#state.uriTemplate as T, { ...this.#state, ...patch });
  }

  #assertOpen(what: string): void {
    if (this.#built) {
      throw new FrozenBuilderError(
        'BUILDER_FROZEN',
        `Resource template "${this.#state.uriTemplate}" is already built; cannot ${what} it. Start a new builder with f.resourceTemplate("${this.#state.uriTemplate}") instead.`,
        { uriTemplate: this.#state.uriTemplate },
      );
    }
  }
}
