import { DefinitionError } from '../errors/FusionError.js';
import type { Icon } from './types.js';

/** What every model accepts besides its name. */
export interface ModelOptions {
  title?: string;
  description?: string;
  /** Listed as `_meta`. */
  meta?: Record<string, unknown>;
  icons?: Icon[];
  /** Joins names in {@link BaseModel.getFullyQualifiedName} (default `.`). */
  separator?: string;
}

/**
 * Root of the domain model (Layer 1): the metadata every MCP primitive shares — name, title,
 * description, `_meta` and icons — and a fully qualified name derived from where the model sits.
 * @see docs/prompts-and-resources.md
 */
export abstract class BaseModel {
  /** The separator used when none is given: `platform.users.create`. */
  static readonly DEFAULT_SEPARATOR = '.';

  readonly name: string;
  /** Joins this model's name to its parent's. */
  readonly separator: string;
  title: string | undefined;
  description: string | undefined;
  meta: Record<string, unknown> | undefined;
  icons: Icon[] | undefined;

  protected constructor(name: string, options: ModelOptions = {}) {
    if (typeof name !== 'string' || name.length === 0) {
      throw new DefinitionError(
        'MODEL_NAME',
        `${new.target.name} needs a non-empty name; got ${JSON.stringify(name)}.`,
        { model: new.target.name },
      );
    }
    const separator = options.separator ?? BaseModel.DEFAULT_SEPARATOR;
    if (separator.length === 0) {
      throw new DefinitionError(
        'MODEL_NAME',
        `${new.target.name} "${name}" has an empty separator; omit it to use "${BaseModel.DEFAULT_SEPARATOR}" or give one such as "/".`,
        { name },
      );
    }
    this.name = name;
    this.separator = separator;
    this.title = options.title;
    this.description = options.description;
    this.meta = options.meta;
    this.icons = options.icons;
  }

  /** The name qualified by the model's position in the tree (`platform.users`); a lone model's is its name. */
  abstract getFullyQualifiedName(): string;
}
