import { z } from 'zod';
import { DefinitionError } from '../errors/FusionError.js';
import type { JsonObjectSchema } from '../protocol/types.js';

/** The `.withX()` fields of a fluent tool, by name. */
export type Fields = Record<string, z.ZodType>;

/**
 * A fluent tool's input schema from its `.withX()` fields and its `.input()`: the fields as a zod object, a
 * zod object extended with the fields, or a raw JSON Schema (listed and validated as written, never mixed
 * with fields). Throws a `DefinitionError` naming the tool for a combination that cannot be built.
 */
export function resolveInput(
  tool: string,
  fields: Fields,
  input: z.ZodType | JsonObjectSchema | undefined,
): { inputZod: z.ZodType | undefined; inputJson: JsonObjectSchema | undefined } {
  const hasFields = Object.keys(fields).length > 0;
  if (input === undefined) return { inputZod: z.object(fields), inputJson: undefined };
  if ('_zod' in input)
    return {
      inputZod: hasFields ? extend(input as z.ZodType, fields, tool) : (input as z.ZodType),
      inputJson: undefined,
    };
  if (hasFields) {
    throw new DefinitionError(
      'TOOL_SCHEMA',
      `Tool "${tool}" combines a raw JSON Schema with .withX() fields; put every field in the JSON Schema or use a zod schema.`,
      { tool },
    );
  }
  return { inputZod: undefined, inputJson: input as JsonObjectSchema };
}

function extend(schema: z.ZodType, fields: Fields, name: string): z.ZodType {
  const ext = (schema as { extend?: (f: Fields) => z.ZodType }).extend;
  if (typeof ext !== 'function') {
    throw new DefinitionError(
      'TOOL_SCHEMA',
      `Tool "${name}" combines a non-object input schema with .withX() fields; use z.object({ ... }).`,
      { tool: name },
    );
  }
  return ext.call(schema, fields);
}
