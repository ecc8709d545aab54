import type { z } from 'zod';
import { DefinitionError } from '../errors/FusionError.js';
import type { FsmBinding } from '../fsm/types.js';
import type { InlineSyncDeclaration } from '../state-sync/types.js';
import type { RateLimit } from '../limits/types.js';
import type { TaskDeclaration } from '../tasks/types.js';
import { withPresenter } from '../presenter/withPresenter.js';
import { compileChain } from './compileChain.js';
import { strictSchema, validatorFromJsonSchema, validatorFromZod, zodToJsonSchema } from './createValidator.js';
import type {
  FusionTool,
  GroupMembership,
  JsonObjectSchema,
  Middleware,
  ToolAnnotations,
  ToolHandler,
  ToolKind,
} from '../protocol/types.js';
import { validateToolName } from './validateToolName.js';

/** Everything needed to build one tool; produced by the fluent and grouped builders. */
export interface ToolDefinitionInput<Ctx> {
  readonly kind: ToolKind;
  readonly name: string;
  readonly title: string | undefined;
  readonly description: string | undefined;
  readonly inputZod: z.ZodType | undefined;
  readonly inputJson: JsonObjectSchema | undefined;
  readonly outputZod: z.ZodType | undefined;
  readonly tags: readonly string[];
  readonly annotations: ToolAnnotations;
  readonly meta: Record<string, unknown> | undefined;
  readonly middlewares: readonly Middleware<Ctx>[];
  readonly sync: InlineSyncDeclaration | undefined;
  readonly fsm: FsmBinding | undefined;
  readonly timeoutMs: number | undefined;
  readonly presenter: unknown;
  readonly group: GroupMembership | undefined;
  readonly requiredScopes?: readonly string[] | undefined;
  readonly rateLimit?: RateLimit | undefined;
  readonly task?: TaskDeclaration | undefined;
  readonly handler: ToolHandler<Ctx, any>;
}

/**
 * Build step shared by every builder: checks the name, derives the JSON Schemas and the validator once,
 * compiles the middleware chain, and freezes the result.
 */
export function buildFusionTool<Ctx>(def: ToolDefinitionInput<Ctx>): FusionTool<Ctx> {
  validateToolName(def.name);
  if (typeof def.handler !== 'function') {
    throw new DefinitionError('TOOL_HANDLER', `Tool "${def.name}" has no handler; pass a function to .handle().`, {
      tool: def.name,
    });
  }
  let inputSchema: JsonObjectSchema;
  let validate: FusionTool['validate'];
  if (def.inputJson !== undefined) {
    if (def.inputJson.type !== 'object') {
      throw new DefinitionError(
        'TOOL_SCHEMA',
        `Tool "${def.name}" has a JSON Schema whose root is not { "type": "object" }; MCP tool inputs are objects.`,
        { tool: def.name },
      );
    }
    inputSchema = structuredClone(def.inputJson);
    validate = validatorFromJsonSchema(inputSchema, def.name);
  } else {
    const strict = strictSchema(def.inputZod!);
    inputSchema = zodToJsonSchema(strict, def.name);
    validate = validatorFromZod(strict);
  }
  const outputSchema = def.outputZod === undefined ? undefined : deepFreeze(zodToJsonSchema(def.outputZod, def.name));
  const annotations =
    def.title !== undefined && def.annotations.title === undefined
      ? { ...def.annotations, title: def.title }
      : def.annotations;
  const tool: FusionTool<Ctx> = {
    kind: def.kind,
    name: def.name,
    title: def.title,
    description: def.description,
    inputSchema: deepFreeze(inputSchema),
    outputSchema,
    annotations: Object.freeze({ ...annotations }),
    tags: Object.freeze([...def.tags]),
    meta: def.meta === undefined ? undefined : deepFreeze(structuredClone(def.meta)),
    sync: def.sync === undefined ? undefined : deepFreeze({ ...def.sync }),
    fsm: def.fsm === undefined ? undefined : deepFreeze({ ...def.fsm }),
    // A task-supporting tool runs up to its TTL unless it sets its own timeout.
    timeoutMs: def.timeoutMs ?? def.task?.ttlMs,
    group: def.group === undefined ? undefined : Object.freeze({ ...def.group }),
    requiredScopes: def.requiredScopes === undefined ? undefined : Object.freeze([...def.requiredScopes]),
    rateLimit: def.rateLimit,
    ...(def.task === undefined ? {} : { task: def.task }),
    validate,
    run: compileChain(
      def.middlewares,
      def.presenter === undefined ? def.handler : withPresenter(def.presenter, def.handler, def.name),
    ),
    presenter: def.presenter,
  };
  return Object.freeze(tool);
}

/** Freezes an object graph in place and returns it. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
