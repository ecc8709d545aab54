import type { ActionSpec, GroupSpec } from './types.js';

/** What {@link generateDescription} and the TOON variant read. */
export interface DescriptionInput {
  readonly description: string | undefined;
  readonly actions: readonly ActionSpec[];
  /** Groups (modules) in declaration order, with their descriptions. */
  readonly groups?: readonly GroupSpec[] | undefined;
}

/**
 * DescriptionGenerator: the description of a grouped tool. The tool's own description, a summary of its
 * modules (when actions are grouped), then one line per action with its required fields; destructive
 * actions end with `[DESTRUCTIVE]`.
 * @example
 * // Platform administration.
 * // Modules:
 * // - users (create, delete): User accounts
 * // Actions:
 * // - users.create: Create a user. Requires: email
 * // - users.delete: Delete a user. Requires: id [DESTRUCTIVE]
 * @see docs/grouped-tools.md
 */
export function generateDescription(input: DescriptionInput): string {
  const lines: string[] = [];
  if (input.description !== undefined && input.description.trim() !== '') lines.push(input.description.trim());
  const modules = groupSummaries(input.actions, input.groups ?? []);
  if (modules.length > 0) {
    lines.push('Modules:');
    for (const m of modules)
      lines.push(`- ${m.name} (${m.actions.join(', ')})${m.description === undefined ? '' : `: ${m.description}`}`);
  }
  lines.push('Actions:');
  for (const action of input.actions) lines.push(actionLine(action));
  return lines.join('\n');
}

/** Actions gathered by group, in the order groups were declared (then first appearance). */
export function groupSummaries(
  actions: readonly ActionSpec[],
  groups: readonly GroupSpec[],
): Array<{ name: string; description: string | undefined; actions: string[] }> {
  const byName = new Map<string, { name: string; description: string | undefined; actions: string[] }>();
  for (const g of groups) byName.set(g.name, { name: g.name, description: g.description, actions: [] });
  for (const action of actions) {
    if (action.group === undefined) continue;
    let entry = byName.get(action.group);
    if (entry === undefined) {
      entry = { name: action.group, description: undefined, actions: [] };
      byName.set(action.group, entry);
    }
    entry.actions.push(action.name);
  }
  return [...byName.values()].filter((g) => g.actions.length > 0);
}

function actionLine(action: ActionSpec): string {
  const parts: string[] = [];
  if (action.description !== undefined && action.description.trim() !== '')
    parts.push(action.description.trim().replace(/\.+$/, ''));
  if (action.required.length > 0) parts.push(`Requires: ${action.required.join(', ')}`);
  const text = parts.length > 0 ? `: ${parts.join('. ')}` : '';
  return `- ${action.key}${text}${action.destructive ? ' [DESTRUCTIVE]' : ''}`;
}
