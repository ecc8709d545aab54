import type { JsonObjectSchema } from '../../protocol/types.js';
import type { ActionSpec, FieldSet } from './types.js';

/** What {@link generateSchema} reads. */
export interface SchemaInput {
  readonly actions: readonly ActionSpec[];
  readonly discriminator: string;
  /** Fields every action takes (a grouped builder's `commonSchema`). */
  readonly common?: FieldSet | undefined;
  /** `$defs` the field schemas refer to, listed at the root. */
  readonly defs?: Readonly<Record<string, unknown>> | undefined;
  /** Emit one `oneOf` branch per action (discriminator as a `const`) instead of one annotated union. */
  readonly perAction?: boolean | undefined;
}

interface FieldUse {
  readonly variants: Record<string, unknown>[];
  description: string | undefined;
  readonly usedBy: string[];
  readonly requiredBy: string[];
  readonly common: boolean;
}

const NO_FIELDS: FieldSet = { properties: {}, required: [] };

/**
 * SchemaGenerator: the `inputSchema` of a grouped tool. By default one object whose discriminator is an
 * enum of the action keys and whose field descriptions end with who needs them:
 * `(always required)` / `(always optional)` for common fields, `Required for: a, b` (required wherever used),
 * `Required for: a. For: b` (required in some), `For: a, b` (optional wherever used).
 * With `perAction`, a `oneOf` with one exact branch per action.
 * @see docs/grouped-tools.md
 */
export function generateSchema(input: SchemaInput): JsonObjectSchema {
  const schema = input.perAction === true ? perActionSchema(input) : unionSchema(input);
  if (input.defs !== undefined && Object.keys(input.defs).length > 0) schema.$defs = input.defs;
  return structuredClone(schema);
}

function unionSchema({ actions, discriminator, common = NO_FIELDS }: SchemaInput): JsonObjectSchema {
  const fields = new Map<string, FieldUse>();
  for (const [name, schema] of Object.entries(common.properties)) {
    const use: FieldUse = { variants: [], description: undefined, usedBy: [], requiredBy: [], common: true };
    addVariant(use, schema);
    fields.set(name, use);
  }
  for (const action of actions) {
    for (const [name, schema] of Object.entries(action.properties)) {
      let use = fields.get(name);
      if (use?.common === true) continue;
      if (use === undefined) {
        use = { variants: [], description: undefined, usedBy: [], requiredBy: [], common: false };
        fields.set(name, use);
      }
      addVariant(use, schema);
      use.usedBy.push(action.key);
      if (action.required.includes(name)) use.requiredBy.push(action.key);
    }
  }
  const properties: Record<string, unknown> = { [discriminator]: discriminatorField(actions) };
  for (const [name, use] of fields) {
    const note = use.common
      ? common.required.includes(name)
        ? '(always required)'
        : '(always optional)'
      : usageNote(use.usedBy, use.requiredBy);
    const body = use.variants.length === 1 ? use.variants[0]! : { anyOf: use.variants };
    properties[name] = { ...body, description: appendNote(use.description, note) };
  }
  return { type: 'object', properties, required: [discriminator, ...common.required], additionalProperties: false };
}

function perActionSchema({ actions, discriminator, common = NO_FIELDS }: SchemaInput): JsonObjectSchema {
  const branches = actions.map((action) => {
    const branch: Record<string, unknown> = { type: 'object' };
    if (action.description !== undefined) branch.description = action.description;
    branch.properties = { [discriminator]: { const: action.key }, ...common.properties, ...action.properties };
    branch.required = [discriminator, ...common.required, ...action.required];
    branch.additionalProperties = false;
    return branch;
  });
  return {
    type: 'object',
    properties: { [discriminator]: discriminatorField(actions) },
    required: [discriminator],
    oneOf: branches,
  };
}

function discriminatorField(actions: readonly ActionSpec[]): Record<string, unknown> {
  const grouped = actions.some((a) => a.group !== undefined);
  return {
    type: 'string',
    enum: actions.map((a) => a.key),
    description: grouped ? 'The operation to perform, as "<module>.<action>"' : 'The operation to perform',
  };
}

/** The 4-tier note of a field that is not common. */
function usageNote(usedBy: readonly string[], requiredBy: readonly string[]): string {
  if (requiredBy.length === 0) return `For: ${usedBy.join(', ')}`;
  if (requiredBy.length === usedBy.length) return `Required for: ${requiredBy.join(', ')}`;
  const optional = usedBy.filter((k) => !requiredBy.includes(k));
  return `Required for: ${requiredBy.join(', ')}. For: ${optional.join(', ')}`;
}

function appendNote(description: string | undefined, note: string): string {
  if (description === undefined || description.trim() === '') return note;
  if (note.startsWith('(')) return `${description.trimEnd()} ${note}`;
  return `${description.replace(/[.\s]+$/, '')}. ${note}`;
}

/** Records a field's schema; the same field with a different schema in another action becomes an `anyOf`. */
function addVariant(use: FieldUse, schema: unknown): void {
  const { description, ...body } = asObject(schema);
  if (use.description === undefined && typeof description === 'string') use.description = description;
  const seen = JSON.stringify(body);
  if (!use.variants.some((v) => JSON.stringify(v) === seen)) use.variants.push(body);
}

function asObject(schema: unknown): Record<string, unknown> {
  if (typeof schema === 'object' && schema !== null) return schema as Record<string, unknown>;
  return schema === false ? { not: {} } : {};
}
