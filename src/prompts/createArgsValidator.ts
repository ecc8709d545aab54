import type { z } from 'zod';
import type { WirePromptArgument } from '../domain/types.js';
import type { PromptArgsOutcome } from './types.js';

/**
 * Builds the argument check of one prompt, once: every required argument present, no unknown names,
 * string values (MCP prompt arguments are strings), then the `.args()` schema when there is one.
 * Failure messages name the prompt and the argument, and list what the prompt accepts.
 */
export function createArgsValidator(
  prompt: string,
  declared: readonly WirePromptArgument[],
  schema?: z.ZodType,
): (args: unknown) => PromptArgsOutcome {
  const names = new Set(declared.map((a) => a.name));
  const required = declared.filter((a) => a.required === true).map((a) => a.name);
  const accepted =
    declared.length === 0
      ? 'It takes no arguments.'
      : `Its arguments: ${declared.map((a) => (a.required === true ? `${a.name} (required)` : a.name)).join(', ')}.`;
  const fail = (message: string, separator = ' '): PromptArgsOutcome => ({
    ok: false,
    message: `${message}${separator}${accepted}`,
  });
  return (raw) => {
    const args = raw ?? {};
    if (typeof args !== 'object' || Array.isArray(args))
      return fail(
        `Prompt "${prompt}" takes its arguments as an object of strings, not ${Array.isArray(args) ? 'an array' : `a ${typeof args}`}.`,
      );
    const given = args as Record<string, unknown>;
    const missing = required.filter((n) => !Object.hasOwn(given, n) || given[n] === undefined);
    if (missing.length > 0) {
      const list = missing.map((n) => `"${n}"`).join(', ');
      return fail(
        `Prompt "${prompt}" is missing the required argument${missing.length > 1 ? 's' : ''} ${list}; call prompts/get again with ${missing.length > 1 ? 'them' : 'it'}.`,
      );
    }
    const value: Record<string, unknown> = {};
    for (const key of Object.keys(given)) {
      if (!names.has(key)) return fail(`Prompt "${prompt}" has no argument "${key}"; remove it.`);
      const v = given[key];
      if (v === undefined) continue;
      if (typeof v !== 'string')
        return fail(
          `Prompt "${prompt}": argument "${key}" must be a string, not ${v === null ? 'null' : `a ${typeof v}`}.`,
        );
      value[key] = v;
    }
    if (schema === undefined) return { ok: true, value };
    const parsed = schema.safeParse(value);
    if (parsed.success) return { ok: true, value: parsed.data as Record<string, unknown> };
    const lines = parsed.error.issues.map(
      (i) =>
        `- ${i.path.length === 0 ? '(arguments)' : i.path.map(String).join('.')}: ${i.message.replace(/^Invalid input: /, '')}`,
    );
    return fail(`Invalid arguments for prompt "${prompt}":\n${lines.join('\n')}`, '\n');
  };
}
