import type { Icon, ResourceAnnotations } from '../domain/types.js';
import { checkScopes } from '../auth/checkScopes.js';
import { FrozenBuilderError } from '../errors/FusionError.js';
import { buildFusionResource, type ResourceDefinitionInput } from './buildFusionResource.js';
import type { FusionResource, ResourceHandler } from './types.js';

type ResourceState = Omit<ResourceDefinitionInput<unknown>, 'handler'>;

/**
 * The fluent builder behind `f.resource(uri)`: data at one fixed URI. Every step returns a new builder;
 * `.handle(fn)` returns the built, frozen {@link FusionResource}, after which this builder refuses changes.
 * @example
 * const readme = f.resource('docs://readme')
 *   .name('readme')
 *   .mimeType('text/markdown')
 *   .handle(async (_uri, ctx) => ctx.docs.read('README.md'));
 * @see docs/prompts-and-resources.md
 */
export class ResourceBuilder<Ctx> {
  #state: ResourceState;
  #built = false;

  /** @internal use `f.resource(uri)`. */
  constructor(uri: string, state?: ResourceState) {
    this.#state = state ?? {
      uri,
      name: undefined,
      title: undefined,
      description: undefined,
      mimeType: undefined,
      size: undefined,
      annotations: undefined,
      icons: undefined,
      meta: undefined,
      reflects: [],
    };
  }

  /** The listed name (defaults to the URI). */
  name(name: string): ResourceBuilder<Ctx> {
    return this.#next({ name });
  }

  /** What the resource holds, as clients list it. */
  describe(description: string): ResourceBuilder<Ctx> {
    return this.#next({ description });
  }

  /** A human-readable title. */
  title(title: string): ResourceBuilder<Ctx> {
    return this.#next({ title });
  }

  /** The MIME type listed and set on read contents that name none. */
  mimeType(mimeType: string): ResourceBuilder<Ctx> {
    return this.#next({ mimeType });
  }

  /** Size in bytes, when known up front. */
  size(bytes: number): ResourceBuilder<Ctx> {
    return this.#next({ size: bytes });
  }

  /** Audience, priority (0–1) and last-modified hints. */
  annotations(annotations: ResourceAnnotations): ResourceBuilder<Ctx> {
    return this.#next({ annotations: { ...this.#state.annotations, ...annotations } });
  }

  /** Icons clients may show. */
  icons(...icons: Icon[]): ResourceBuilder<Ctx> {
    return this.#next({ icons: [...(this.#state.icons ?? []), ...icons] });
  }

  /** Extra `_meta` listed with the resource. */
  meta(meta: Record<string, unknown>): ResourceBuilder<Ctx> {
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
  requireScopes(...scopes: [string, ...string[]]): ResourceBuilder<Ctx> {
    return this.#next({
      requiredScopes: [
        ...new Set([...(this.#state.requiredScopes ?? []), ...checkScopes(scopes, `Resource "${this.#state.uri}"`)]),
      ],
    });
  }

  /** The tool domains whose data this resource mirrors (globs such as `sprints.*`), kept for State Sync. */
  reflects(...globs: string[]): ResourceBuilder<Ctx> {
    return this.#next({ reflects: [...this.#state.reflects, ...globs] });
  }

  /** Sets the handler and returns the built, frozen resource. */
  handle(handler: ResourceHandler<Ctx>): FusionResource<Ctx> {
    this.#assertOpen('handle');
    this.#built = true;
    return buildFusionResource<Ctx>({ ...this.#state, handler });
  }

  #next(patch: Partial<ResourceState>): ResourceBuilder<Ctx> {
    this.#assertOpen('change');
    return new ResourceBuilder<Ctx>(this.#state.uri, { ...this.#state, ...patch });
  }

  #assertOpen(what: string): void {
    if (this.#built) {
      throw new FrozenBuilderError(
        'BUILDER_FROZEN',
        `Resource "${this.#state.uri}" is already built; cannot ${what} it. Start a new builder with f.resource("${this.#state.uri}") instead.`,
        { uri: this.#state.uri },
      );
    }
  }
}
