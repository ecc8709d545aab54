import { z } from 'zod';
import { DefinitionError } from '../errors/FusionError.js';
import type { JsonObjectSchema, ValidationIssue, ValidationOutcome } from '../protocol/types.js';

type AnySchema = z.ZodType;

/** True for a zod (v4) schema. */
export function isZodSchema(value: unknown): value is AnySchema {
  return typeof value === 'object' && value !== null && '_zod' in value;
}

/** A zod object made strict, so that unknown fields are rejected. */
export function strictSchema(schema: AnySchema): AnySchema {
  const strict = (schema as { strict?: () => AnySchema }).strict;
  return typeof strict === 'function' ? strict.call(schema) : schema;
}

/** The JSON Schema listed for a zod schema, computed once at build time. */
export function zodToJsonSchema(schema: AnySchema, owner: string): JsonObjectSchema {
  let json: Record<string, unknown>;
  try {
    json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  } catch (error) {
    throw new DefinitionError(
      'TOOL_SCHEMA',
      `Tool "${owner}" has an input schema that cannot be turned into JSON Schema (${String(error)}); use JSON-representable zod types.`,
      { tool: owner },
    );
  }
  delete json.$schema;
  if (json.type !== 'object') {
    throw new DefinitionError(
      'TOOL_SCHEMA',
      `Tool "${owner}" must take an object as input; wrap the schema in z.object({ ... }).`,
      { tool: owner },
    );
  }
  return json as JsonObjectSchema;
}

/** Builds the strict validator of a tool from a zod schema. */
export function validatorFromZod(schema: AnySchema): (args: unknown) => ValidationOutcome {
  return (args) => {
    const parsed = schema.safeParse(args ?? {});
    if (parsed.success) return { ok: true, value: parsed.data as Record<string, unknown> };
    return { ok: false, issues: toIssues(parsed.error.issues) };
  };
}

/** Builds a validator from a raw JSON Schema (draft 2020-12), listed unchanged. */
export function validatorFromJsonSchema(schema: JsonObjectSchema, owner: string): (args: unknown) => ValidationOutcome {
  let converted: AnySchema;
  try {
    converted = z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]) as AnySchema;
  } catch (error) {
    throw new DefinitionError(
      'TOOL_SCHEMA',
      `Tool "${owner}" has a JSON Schema that cannot be validated (${String(error)}); check its keywords.`,
      { tool: owner },
    );
  }
  return validatorFromZod(converted);
}

function toIssues(issues: readonly z.core.$ZodIssue[]): ValidationIssue[] {
  const out: ValidationIssue[] = [];
  for (const issue of issues) {
    const base = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) out.push({ path: base ? `${base}.${key}` : key, message: 'unknown field' });
    } else {
      out.push({ path: base, message: issue.message.replace(/^Invalid input: /, '') });
    }
  }
  return out;
}
