import type { DescriptionInput } from './generateDescription.js';
import type { ActionSpec, ToonEncode } from './types.js';

interface ActionRow {
  action: string;
  description: string;
  requires: string;
  destructive: boolean;
}

/**
 * ToonDescriptionGenerator: a denser description for tools with many actions. The tool's own description,
 * then the actions as a TOON table (`|`-delimited): one table for ungrouped tools, one table per module
 * for grouped ones. `encode` is `@toon-format/toon`'s, passed in so that this function stays pure.
 * @see docs/grouped-tools.md
 */
export function generateToonDescription(input: DescriptionInput, encode: ToonEncode): string {
  const grouped = input.actions.some((a) => a.group !== undefined);
  let body: string;
  if (grouped) {
    const modules: Record<string, ActionRow[]> = {};
    for (const action of input.actions) (modules[action.group ?? '(ungrouped)'] ??= []).push(row(action.name, action));
    body = encode(modules, { delimiter: '|' });
  } else {
    body = encode({ actions: input.actions.map((a) => row(a.key, a)) }, { delimiter: '|' });
  }
  const head = input.description?.trim() ?? '';
  return head === '' ? body : `${head}\n${body}`;
}

function row(action: string, spec: ActionSpec): ActionRow {
  return {
    action,
    description: spec.description?.trim() ?? '',
    requires: spec.required.join(','),
    destructive: spec.destructive,
  };
}
