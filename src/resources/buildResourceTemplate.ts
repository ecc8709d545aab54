import { deepFreeze } from '../builder/buildFusionTool.js';
import { freezeCompleters } from '../completion/completers.js';
import type { Completer } from '../completion/types.js';
import type { WireResource, WireResourceTemplate } from '../domain/types.js';
import { describeValue } from '../_internal/describeValue.js';
import { DefinitionError } from '../errors/FusionError.js';
import { JsonRpcCode, WireError } from '../errors/WireError.js';
import { compileUriTemplate } from './compileUriTemplate.js';
import { normalizeReadResult } from './normalizeReadResult.js';
import { assertAbsoluteUri, listedMetadata, type ResourceMetadataInput } from './resourceMetadata.js';
import type { FusionResourceTemplate, ListedResource, TemplateHandler, TemplateLister } from './types.js';

/** Everything needed to build one resource template; produced by {@link ResourceTemplateBuilder}. */
export interface ResourceTemplateDefinitionInput<Ctx> extends ResourceMetadataInput {
  readonly uriTemplate: string;
  readonly lister: TemplateLister<Ctx> | undefined;
  /** Completers by variable name, from `.complete()`. */
  readonly completers: ReadonlyMap<string, Completer<Ctx>>;
  readonly handler: TemplateHandler<Ctx, any>;
}

/**
 * Build step of a resource template: compiles the URI template once, checks metadata and handler,
 * and freezes the listed definition.
 */
export function buildResourceTemplate<Ctx>(def: ResourceTemplateDefinitionInput<Ctx>): FusionResourceTemplate<Ctx> {
  assertAbsoluteUri(def.uriTemplate, 'Resource template');
  const { uriTemplate, handler, lister } = def;
  const compiled = compileUriTemplate(uriTemplate);
  if (typeof handler !== 'function') {
    throw new DefinitionError(
      'RESOURCE_HANDLER',
      `Resource template "${uriTemplate}" has no handler; pass a function to .handle().`,
      { uriTemplate },
    );
  }
  const metadata = listedMetadata(def, uriTemplate);
  const definition: WireResourceTemplate = deepFreeze({ uriTemplate, name: def.name ?? uriTemplate, ...metadata });
  const mimeType = def.mimeType;
  const completers = freezeCompleters(
    def.completers,
    compiled.variables,
    `Resource template "${uriTemplate}"`,
    'variable',
  );
  const template: FusionResourceTemplate<Ctx> = {
    kind: 'resourceTemplate',
    requiredScopes: def.requiredScopes === undefined ? undefined : Object.freeze([...def.requiredScopes]),
    uriTemplate,
    compiled,
    name: definition.name,
    title: def.title,
    description: def.description,
    mimeType,
    annotations: definition.annotations,
    icons: definition.icons,
    meta: definition._meta,
    reflects: Object.freeze([...def.reflects]),
    definition,
    read: async (uri, vars, ctx, extra) => normalizeReadResult(await handler(uri, vars, ctx, extra), uri, mimeType),
    completers,
    list:
      lister === undefined
        ? undefined
        : async (ctx, extra) => toListed(await lister(ctx, extra), uriTemplate, mimeType),
  };
  return Object.freeze(template);
}

function toListed(items: readonly ListedResource[], uriTemplate: string, mimeType: string | undefined): WireResource[] {
  if (!Array.isArray(items)) {
    throw new WireError(
      JsonRpcCode.InternalError,
      `Resource template "${uriTemplate}" listed ${describeValue(items)}; its .list() callback must return an array of { uri, name? }.`,
    );
  }
  return items.map((item, i) => {
    if (typeof item?.uri !== 'string') {
      throw new WireError(
        JsonRpcCode.InternalError,
        `Resource template "${uriTemplate}" listed an item without a uri at index ${i}; give every listed resource a uri.`,
      );
    }
    const listed: WireResource = { ...item, name: item.name ?? item.uri };
    if (listed.mimeType === undefined && mimeType !== undefined) listed.mimeType = mimeType;
    return listed;
  });
}
