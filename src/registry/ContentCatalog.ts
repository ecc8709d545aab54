import { DefinitionError } from '../errors/FusionError.js';
import type { FusionPrompt } from '../prompts/types.js';
import type { FusionResource, FusionResourceTemplate } from '../resources/types.js';
import type { FusionSkill } from '../skills/types.js';

/** A built prompt, resource, resource template or skill: what a registry holds besides tools. */
export type ContentItem<Ctx = any> =
  | FusionPrompt<Ctx>
  | FusionResource<Ctx>
  | FusionResourceTemplate<Ctx>
  | FusionSkill;

/** The `kind` values of {@link ContentItem}s. */
const CONTENT_KINDS: ReadonlySet<string> = new Set(['prompt', 'resource', 'resourceTemplate', 'skill']);

/** True for a built prompt, resource or resource template. */
export function isContentItem<T>(value: T): value is Extract<T, ContentItem> {
  return typeof value === 'object' && value !== null && CONTENT_KINDS.has((value as { kind?: unknown }).kind as string);
}

/**
 * The prompts, resources and resource templates of a registry, in registration order, with duplicate
 * detection per kind: a prompt name, a resource URI, or a template matching the same URIs as another.
 */
export class ContentCatalog<Ctx = any> {
  readonly #prompts = new Map<string, FusionPrompt<Ctx>>();
  readonly #resources = new Map<string, FusionResource<Ctx>>();
  /** Keyed by the compiled pattern, so `x/{a}` and `x/{b}` count as the same template. */
  readonly #templates = new Map<string, FusionResourceTemplate<Ctx>>();
  readonly #skills = new Map<string, FusionSkill>();

  /** Adds one item; a duplicate of its kind throws, naming both. */
  add(item: ContentItem<Ctx>): void {
    switch (item.kind) {
      case 'prompt': {
        const existing = this.#prompts.get(item.name);
        if (existing !== undefined) duplicate('Prompt', item.name, existing.description, item.description, 'name');
        this.#prompts.set(item.name, item);
        return;
      }
      case 'resource': {
        const existing = this.#resources.get(item.uri);
        if (existing !== undefined) duplicate('Resource', item.uri, existing.name, item.name, 'URI');
        this.#resources.set(item.uri, item);
        return;
      }
      case 'resourceTemplate': {
        const key = item.compiled.pattern.source;
        const existing = this.#templates.get(key);
        if (existing !== undefined) {
          throw new DefinitionError(
            'RESOURCE_DUPLICATE',
            existing.uriTemplate === item.uriTemplate
              ? `Resource template "${item.uriTemplate}" is registered twice (first "${existing.name}", then "${item.name}"). Give one of them another URI template.`
              : `Resource template "${item.uriTemplate}" matches the same URIs as "${existing.uriTemplate}", registered before it; change the literal parts of one of them.`,
            { uriTemplate: item.uriTemplate },
          );
        }
        this.#templates.set(key, item);
        return;
      }
      case 'skill': {
        if (this.#skills.has(item.name))
          throw new DefinitionError(
            'SKILL_DUPLICATE',
            `Skill "${item.name}" is registered twice. Give one of them another name.`,
            { name: item.name },
          );
        this.#skills.set(item.name, item);
        return;
      }
    }
  }

  get prompts(): readonly FusionPrompt<Ctx>[] {
    return [...this.#prompts.values()];
  }

  get resources(): readonly FusionResource<Ctx>[] {
    return [...this.#resources.values()];
  }

  get resourceTemplates(): readonly FusionResourceTemplate<Ctx>[] {
    return [...this.#templates.values()];
  }

  get skills(): readonly FusionSkill[] {
    return [...this.#skills.values()];
  }

  /** True when nothing but tools was registered. */
  get isEmpty(): boolean {
    return (
      this.#prompts.size === 0 && this.#resources.size === 0 && this.#templates.size === 0 && this.#skills.size === 0
    );
  }
}

function duplicate(
  what: 'Prompt' | 'Resource',
  key: string,
  first: string | undefined,
  then: string | undefined,
  identity: 'name' | 'URI',
): never {
  const label = (text: string | undefined) =>
    text === undefined ? 'one without a description' : `"${text.slice(0, 40)}"`;
  throw new DefinitionError(
    what === 'Prompt' ? 'PROMPT_DUPLICATE' : 'RESOURCE_DUPLICATE',
    `${what} "${key}" is registered twice (first ${label(first)}, then ${label(then)}). Give one of them another ${identity}.`,
    what === 'Prompt' ? { name: key } : { uri: key },
  );
}
