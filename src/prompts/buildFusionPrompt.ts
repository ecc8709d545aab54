import type { z } from 'zod';
import { deepFreeze } from '../builder/buildFusionTool.js';
import { freezeCompleters } from '../completion/completers.js';
import type { Completer } from '../completion/types.js';
import type { Icon, WirePrompt, WirePromptArgument } from '../domain/types.js';
import { DefinitionError } from '../errors/FusionError.js';
import { createArgsValidator } from './createArgsValidator.js';
import { normalizePromptResult } from './normalizePromptResult.js';
import type { FusionPrompt, PromptHandler } from './types.js';

/** Everything needed to build one prompt; produced by {@link PromptBuilder}. */
export interface PromptDefinitionInput<Ctx> {
  readonly name: string;
  readonly title: string | undefined;
  readonly description: string | undefined;
  /** Declared with `.argument()`; empty when `schema` is set. */
  readonly arguments: readonly WirePromptArgument[];
  /** The `.args()` zod object, if any; its fields become the listed arguments. */
  readonly schema: z.ZodType | undefined;
  readonly icons: readonly Icon[] | undefined;
  readonly meta: Record<string, unknown> | undefined;
  readonly requiredScopes?: readonly string[] | undefined;
  /** Completers by argument name, from `.complete()`. */
  readonly completers: ReadonlyMap<string, Completer<Ctx>>;
  readonly handler: PromptHandler<Ctx, any>;
}

const PROMPT_NAME = /^[^\s\p{C}]{1,128}$/u;

/**
 * Build step of a prompt: checks the name and handler, derives the listed arguments (from the zod
 * schema when there is one), compiles the argument check, and freezes the result.
 */
export function buildFusionPrompt<Ctx>(def: PromptDefinitionInput<Ctx>): FusionPrompt<Ctx> {
  if (typeof def.name !== 'string' || !PROMPT_NAME.test(def.name)) {
    throw new DefinitionError(
      'PROMPT_NAME',
      `Prompt name ${JSON.stringify(def.name)} is invalid: use 1–128 characters without spaces, such as "code_review".`,
      { name: def.name },
    );
  }
  if (typeof def.handler !== 'function') {
    throw new DefinitionError('PROMPT_HANDLER', `Prompt "${def.name}" has no handler; pass a function to .handle().`, {
      prompt: def.name,
    });
  }
  const args = deepFreeze(def.schema === undefined ? def.arguments.map((a) => ({ ...a })) : argumentsOf(def.schema));
  const definition: WirePrompt = { name: def.name };
  if (def.title !== undefined) definition.title = def.title;
  if (def.description !== undefined) definition.description = def.description;
  if (args.length > 0) definition.arguments = args;
  if (def.icons !== undefined) definition.icons = structuredClone([...def.icons]);
  if (def.meta !== undefined) definition._meta = structuredClone(def.meta);
  const { name, description, handler } = def;
  const completers = freezeCompleters(
    def.completers,
    args.map((a) => a.name),
    `Prompt "${name}"`,
    'argument',
  );
  const prompt: FusionPrompt<Ctx> = {
    kind: 'prompt',
    requiredScopes: def.requiredScopes === undefined ? undefined : Object.freeze([...def.requiredScopes]),
    name,
    title: def.title,
    description,
    arguments: args,
    icons: definition.icons,
    meta: definition._meta,
    definition: deepFreeze(definition),
    validate: createArgsValidator(name, args, def.schema),
    completers,
    run: async (input, ctx, extra) => normalizePromptResult(await handler(input, ctx, extra), name, description),
  };
  return Object.freeze(prompt);
}

/** The listed arguments of a zod object: one per field, required unless the field accepts undefined. */
function argumentsOf(schema: z.ZodType): WirePromptArgument[] {
  const shape = (schema as { shape?: Record<string, z.ZodType> }).shape ?? {};
  return Object.entries(shape).map(([name, field]) => {
    const argument: WirePromptArgument = { name };
    const description = (field as { description?: string }).description;
    if (description !== undefined) argument.description = description;
    argument.required = (field as { _zod?: { optin?: string } })._zod?.optin !== 'optional';
    return argument;
  });
}
