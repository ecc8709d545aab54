import { ConverterBase } from './ConverterBase.js';
import { Resource } from './Resource.js';
import type { WireResource } from './types.js';
import { compact } from './_internal/compact.js';

/**
 * {@link Resource} ⇄ the plain `Resource` object of `resources/list`. Wire resources without a URI
 * convert to null; one without a name is named after its URI.
 * @see docs/prompts-and-resources.md
 */
export class ResourceConverter extends ConverterBase<Resource, WireResource> {
  convertFrom(resource: Resource): WireResource {
    return {
      uri: resource.uri,
      name: resource.name,
      ...compact({
        title: resource.title,
        description: resource.description,
        mimeType: resource.mimeType,
        size: resource.size,
        annotations: resource.annotations === undefined ? undefined : { ...resource.annotations },
        icons: resource.icons?.map((i) => ({ ...i })),
        _meta: resource.meta,
      }),
    };
  }

  convertTo(wire: WireResource): Resource | null {
    if (typeof wire?.uri !== 'string' || wire.uri.length === 0) return null;
    const name = typeof wire.name === 'string' && wire.name.length > 0 ? wire.name : wire.uri;
    return new Resource(
      name,
      wire.uri,
      compact({
        title: wire.title,
        description: wire.description,
        mimeType: wire.mimeType,
        size: wire.size,
        annotations: wire.annotations === undefined ? undefined : { ...wire.annotations },
        icons: wire.icons?.map((i) => ({ ...i })),
        meta: wire._meta,
      }),
    );
  }
}
