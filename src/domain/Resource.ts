import { DefinitionError } from '../errors/FusionError.js';
import type { ModelOptions } from './BaseModel.js';
import { GroupItem } from './GroupItem.js';
import type { ResourceAnnotations } from './types.js';

/** What a {@link Resource} accepts besides its name and URI. */
export interface ResourceOptions extends ModelOptions {
  mimeType?: string;
  /** Size in bytes, when known. */
  size?: number;
  annotations?: ResourceAnnotations;
}

/**
 * A resource in the domain model: data a client can read at `uri`.
 * Convert it to what `resources/list` shows with {@link ResourceConverter}.
 * @see docs/prompts-and-resources.md
 */
export class Resource extends GroupItem {
  readonly kind = 'resource' as const;
  uri: string;
  mimeType: string | undefined;
  size: number | undefined;
  annotations: ResourceAnnotations | undefined;

  constructor(name: string, uri: string, options: ResourceOptions = {}) {
    super(name, options);
    if (typeof uri !== 'string' || uri.length === 0) {
      throw new DefinitionError(
        'RESOURCE_URI',
        `Resource "${name}" needs a URI such as "file:///notes.txt"; got ${JSON.stringify(uri)}.`,
        { name },
      );
    }
    this.uri = uri;
    this.mimeType = options.mimeType;
    this.size = options.size;
    this.annotations = options.annotations;
  }
}
