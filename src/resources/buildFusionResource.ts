import { deepFreeze } from '../builder/buildFusionTool.js';
import type { WireResource } from '../domain/types.js';
import { DefinitionError } from '../errors/FusionError.js';
import { normalizeReadResult } from './normalizeReadResult.js';
import { assertAbsoluteUri, listedMetadata, type ResourceMetadataInput } from './resourceMetadata.js';
import type { FusionResource, ResourceHandler } from './types.js';

/** Everything needed to build one fixed resource; produced by {@link ResourceBuilder}. */
export interface ResourceDefinitionInput<Ctx> extends ResourceMetadataInput {
  readonly uri: string;
  readonly size: number | undefined;
  readonly handler: ResourceHandler<Ctx>;
}

/** Build step of a fixed resource: checks the URI, metadata and handler, and freezes the listed definition. */
export function buildFusionResource<Ctx>(def: ResourceDefinitionInput<Ctx>): FusionResource<Ctx> {
  assertAbsoluteUri(def.uri, 'Resource URI');
  const { uri, handler } = def;
  if (typeof handler !== 'function') {
    throw new DefinitionError('RESOURCE_HANDLER', `Resource "${uri}" has no handler; pass a function to .handle().`, {
      uri,
    });
  }
  if (def.size !== undefined && !(Number.isInteger(def.size) && def.size >= 0)) {
    throw new DefinitionError(
      'RESOURCE_SIZE',
      `Resource "${uri}" has size ${def.size}; give a whole number of bytes, or leave it out.`,
      { uri },
    );
  }
  const metadata = listedMetadata(def, uri);
  const definition: WireResource = { uri, name: def.name ?? uri, ...metadata };
  if (def.size !== undefined) definition.size = def.size;
  deepFreeze(definition);
  const mimeType = def.mimeType;
  const resource: FusionResource<Ctx> = {
    kind: 'resource',
    requiredScopes: def.requiredScopes === undefined ? undefined : Object.freeze([...def.requiredScopes]),
    uri,
    name: definition.name,
    title: def.title,
    description: def.description,
    mimeType,
    size: def.size,
    annotations: definition.annotations,
    icons: definition.icons,
    meta: definition._meta,
    reflects: Object.freeze([...def.reflects]),
    definition,
    read: async (requested, ctx, extra) =>
      normalizeReadResult(await handler(requested, ctx, extra), requested, mimeType),
  };
  return Object.freeze(resource);
}
