import { describeValue } from '../_internal/describeValue.js';
import { DefinitionError } from '../errors/FusionError.js';
import { JsonRpcCode, WireError } from '../errors/WireError.js';
import type { Completer, Completion, CompletionReturn } from './types.js';

/** The most values one `completion/complete` result may carry (MCP). */
export const MAX_COMPLETION_VALUES = 100;

/**
 * Adds one completer to a builder's map, refusing a non-function and a second completer for the same
 * name. `owner` names the prompt or template in the message.
 */
export function addCompleter<Ctx>(
  completers: ReadonlyMap<string, Completer<Ctx>>,
  name: string,
  completer: Completer<Ctx>,
  owner: string,
): Map<string, Completer<Ctx>> {
  if (typeof name !== 'string' || name.length === 0) {
    throw new DefinitionError(
      'COMPLETION',
      `${owner} calls .complete() without an argument name; pass the name of the argument to complete.`,
      { owner },
    );
  }
  if (typeof completer !== 'function') {
    throw new DefinitionError(
      'COMPLETION',
      `${owner} calls .complete("${name}") with ${describeValue(completer)}; pass (value, context, ctx, extra) => ['suggestion', …].`,
      { owner, argument: name },
    );
  }
  if (completers.has(name)) {
    throw new DefinitionError(
      'COMPLETION',
      `${owner} has two completers for "${name}"; keep one .complete("${name}", …).`,
      { owner, argument: name },
    );
  }
  return new Map([...completers, [name, completer]]);
}

/**
 * Checks at build time that every completer names something that exists (`known`: the declared arguments
 * or the template variables), and freezes the map.
 */
export function freezeCompleters<Ctx>(
  completers: ReadonlyMap<string, Completer<Ctx>>,
  known: readonly string[],
  owner: string,
  what: 'argument' | 'variable',
): ReadonlyMap<string, Completer<Ctx>> {
  for (const name of completers.keys()) {
    if (!known.includes(name)) {
      const list = known.length > 0 ? `Its ${what}s: ${known.join(', ')}.` : `It has no ${what}s.`;
      throw new DefinitionError(
        'COMPLETION',
        `${owner} completes "${name}", which is not one of its ${what}s. ${list}`,
        { owner, [what]: name },
      );
    }
  }
  return completers;
}

/** Shapes a completer's return into the wire `completion`: strings only, at most 100, `total`/`hasMore` kept consistent. */
export function normalizeCompletion(value: CompletionReturn, label: string): Completion {
  const given = Array.isArray(value)
    ? { values: value as readonly unknown[] }
    : (value as { values?: unknown; total?: unknown; hasMore?: unknown } | null);
  if (
    given === null ||
    typeof given !== 'object' ||
    !Array.isArray(given.values) ||
    !given.values.every((v) => typeof v === 'string')
  ) {
    throw new WireError(
      JsonRpcCode.InternalError,
      `${label} returned ${describeValue(value)}; a completer must return an array of strings or { values: [...], total?, hasMore? }.`,
    );
  }
  const values = given.values as string[];
  const completion: Completion = { values: values.slice(0, MAX_COMPLETION_VALUES) };
  const total =
    typeof given.total === 'number' && Number.isInteger(given.total) && given.total >= 0 ? given.total : undefined;
  if (total !== undefined || values.length > MAX_COMPLETION_VALUES)
    completion.total = Math.max(total ?? 0, values.length);
  const hasMore =
    given.hasMore === true ||
    values.length > MAX_COMPLETION_VALUES ||
    (completion.total !== undefined && completion.total > completion.values.length);
  if (hasMore || given.hasMore === false) completion.hasMore = hasMore;
  return completion;
}
