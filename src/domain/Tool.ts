import type { JsonObjectSchema, ToolAnnotations } from '../protocol/types.js';
import type { ModelOptions } from './BaseModel.js';
import { GroupItem } from './GroupItem.js';

/** What a {@link Tool} accepts besides its name. */
export interface ToolOptions extends ModelOptions {
  /** Defaults to `{ type: 'object' }` (no arguments). */
  inputSchema?: JsonObjectSchema;
  outputSchema?: JsonObjectSchema;
  annotations?: ToolAnnotations;
}

/**
 * A tool in the domain model: its schemas and hints, filed under any number of groups.
 * Convert it to what `tools/list` shows with {@link ToolConverter}.
 * @see docs/prompts-and-resources.md
 */
export class Tool extends GroupItem {
  readonly kind = 'tool' as const;
  inputSchema: JsonObjectSchema;
  outputSchema: JsonObjectSchema | undefined;
  annotations: ToolAnnotations | undefined;

  constructor(name: string, options: ToolOptions = {}) {
    super(name, options);
    this.inputSchema = options.inputSchema ?? { type: 'object' };
    this.outputSchema = options.outputSchema;
    this.annotations = options.annotations;
  }
}
