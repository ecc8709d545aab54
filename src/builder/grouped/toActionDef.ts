import { DefinitionError } from '../../errors/FusionError.js';
import { checkScopes } from '../../auth/checkScopes.js';
import { checkRateLimit } from '../../limits/checkRateLimit.js';
import type { Middleware } from '../../protocol/types.js';
import type { ActionConfig, ActionDef, ZodObjectSchema } from './types.js';

const SEGMENT = /^[A-Za-z0-9_-]{1,64}$/;

/** Throws unless `name` can be an action or group name (no dots: groups add them). */
export function checkSegment(tool: string, what: 'action' | 'group', name: unknown): asserts name is string {
  if (typeof name === 'string' && SEGMENT.test(name)) return;
  throw new DefinitionError(
    'TOOL_ACTION',
    `Tool "${tool}" has ${what === 'action' ? 'an action' : 'a group'} named ${JSON.stringify(name)}; action and group names are 1–64 letters, digits, "_" or "-" (no dots: .group("users", …) makes keys such as "users.create").`,
    { tool, [what]: name },
  );
}

/** True for a zod object schema. */
export function isZodObject(value: unknown): value is ZodObjectSchema {
  return (
    typeof value === 'object' &&
    value !== null &&
    '_zod' in value &&
    typeof (value as { shape?: unknown }).shape === 'object'
  );
}

/** Checks one `.action({...})` config and freezes it as the builder stores it. */
export function toActionDef<Ctx>(
  tool: string,
  group: { readonly name: string; readonly middlewares: readonly Middleware<Ctx>[] } | undefined,
  config: ActionConfig<Ctx, any, any>,
): ActionDef<Ctx> {
  if (typeof config !== 'object' || config === null) {
    throw new DefinitionError(
      'TOOL_ACTION',
      `Tool "${tool}" got ${String(config)} in .action(); pass { name, handler, … }.`,
      { tool },
    );
  }
  checkSegment(tool, 'action', config.name);
  const key = group === undefined ? config.name : `${group.name}.${config.name}`;
  const data = { tool, action: key };
  if (typeof config.handler !== 'function') {
    throw new DefinitionError(
      'TOOL_HANDLER',
      `Action "${key}" of tool "${tool}" has no handler; pass handler: (input, ctx, extra) => ….`,
      data,
    );
  }
  if (config.schema !== undefined && !isZodObject(config.schema)) {
    throw new DefinitionError(
      'TOOL_SCHEMA',
      `Action "${key}" of tool "${tool}" has a schema that is not a zod object; pass schema: z.object({ … }).`,
      data,
    );
  }
  if (config.readOnly === true && config.destructive === true) {
    throw new DefinitionError(
      'TOOL_ACTION',
      `Action "${key}" of tool "${tool}" is both readOnly and destructive; a read-only action destroys nothing, so drop one of the two.`,
      data,
    );
  }
  return Object.freeze({
    key,
    name: config.name,
    group: group?.name,
    description: config.description,
    schema: config.schema,
    readOnly: config.readOnly === true,
    destructive: config.destructive === true,
    idempotent: config.idempotent === true,
    middlewares: group?.middlewares ?? [],
    ...(config.requireScopes === undefined
      ? {}
      : { requiredScopes: checkScopes(config.requireScopes, `Action "${key}" of tool "${tool}"`) }),
    ...(config.rateLimit === undefined
      ? {}
      : { rateLimit: checkRateLimit(config.rateLimit, `Action "${key}" of tool "${tool}"`) }),
    handler: config.handler,
  });
}
