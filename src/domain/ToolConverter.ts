import type { JsonObjectSchema, ToolAnnotations } from '../protocol/types.js';
import { ConverterBase } from './ConverterBase.js';
import { Tool } from './Tool.js';
import type { WireTool } from './types.js';
import { compact } from './_internal/compact.js';

/** Options of the domain converters that name things on the wire. */
export interface NamingOptions {
  /** List each item under its fully qualified name (`platform.users.create`) instead of its own name. */
  qualifiedNames?: boolean;
}

/**
 * {@link Tool} ⇄ the plain `Tool` object of `tools/list`. Wire tools without a name convert to null
 * (and drop out of batches).
 * @see docs/prompts-and-resources.md
 */
export class ToolConverter extends ConverterBase<Tool, WireTool> {
  readonly #qualified: boolean;

  constructor(options: NamingOptions = {}) {
    super();
    this.#qualified = options.qualifiedNames ?? false;
  }

  convertFrom(tool: Tool): WireTool {
    return {
      name: this.#qualified ? tool.getFullyQualifiedName() : tool.name,
      ...compact({
        title: tool.title,
        description: tool.description,
        outputSchema: tool.outputSchema,
        annotations: tool.annotations === undefined ? undefined : ({ ...tool.annotations } as Record<string, unknown>),
        icons: tool.icons?.map((i) => ({ ...i })),
        _meta: tool.meta,
      }),
      inputSchema: tool.inputSchema,
    };
  }

  convertTo(wire: WireTool): Tool | null {
    if (typeof wire?.name !== 'string' || wire.name.length === 0) return null;
    return new Tool(
      wire.name,
      compact({
        title: wire.title,
        description: wire.description,
        inputSchema: wire.inputSchema as JsonObjectSchema | undefined,
        outputSchema: wire.outputSchema as JsonObjectSchema | undefined,
        annotations: wire.annotations as ToolAnnotations | undefined,
        icons: wire.icons?.map((i) => ({ ...i })),
        meta: wire._meta,
      }),
    );
  }
}
