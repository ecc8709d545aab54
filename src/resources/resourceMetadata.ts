import type { Icon, ListedMetadata, ResourceAnnotations } from '../domain/types.js';
import { DefinitionError } from '../errors/FusionError.js';

/** The metadata steps shared by the resource and resource-template builders. */
export interface ResourceMetadataInput {
  /** Defaults to the URI (or the URI template). */
  readonly name: string | undefined;
  readonly title: string | undefined;
  readonly description: string | undefined;
  readonly mimeType: string | undefined;
  readonly annotations: ResourceAnnotations | undefined;
  readonly icons: readonly Icon[] | undefined;
  readonly meta: Record<string, unknown> | undefined;
  readonly reflects: readonly string[];
  readonly requiredScopes?: readonly string[] | undefined;
}

export type { ListedMetadata };

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

/** Throws unless `uri` is absolute (has a scheme), naming the culprit and an example. */
export function assertAbsoluteUri(uri: unknown, what: 'Resource URI' | 'Resource template'): asserts uri is string {
  if (typeof uri === 'string' && SCHEME.test(uri)) return;
  throw new DefinitionError(
    what === 'Resource URI' ? 'RESOURCE_URI' : 'RESOURCE_TEMPLATE',
    `${what} ${JSON.stringify(uri)} has no scheme; use an absolute URI such as ${what === 'Resource URI' ? '"file:///notes.txt" or "app://notes/readme"' : '"app://notes/{id}"'}.`,
    { uri },
  );
}

/** Checks the shared metadata of `owner` (its URI or template) and returns the listed fields. */
export function listedMetadata(def: ResourceMetadataInput, owner: string): ListedMetadata {
  const priority = def.annotations?.priority;
  if (priority !== undefined && !(priority >= 0 && priority <= 1)) {
    throw new DefinitionError(
      'RESOURCE_ANNOTATIONS',
      `Resource "${owner}" has annotations.priority ${priority}; give a number from 0 (least important) to 1 (most important).`,
      { uri: owner },
    );
  }
  for (const glob of def.reflects) {
    if (typeof glob !== 'string' || glob.trim().length === 0) {
      throw new DefinitionError(
        'RESOURCE_REFLECTS',
        `Resource "${owner}" calls .reflects() with ${JSON.stringify(glob)}; pass tool-domain globs such as "sprints.*".`,
        { uri: owner },
      );
    }
  }
  const out: ListedMetadata = {};
  if (def.title !== undefined) out.title = def.title;
  if (def.description !== undefined) out.description = def.description;
  if (def.mimeType !== undefined) out.mimeType = def.mimeType;
  if (def.annotations !== undefined) out.annotations = structuredClone(def.annotations);
  if (def.icons !== undefined) out.icons = structuredClone([...def.icons]);
  if (def.meta !== undefined) out._meta = structuredClone(def.meta);
  return out;
}
