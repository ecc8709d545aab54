import { DefinitionError } from '../../errors/FusionError.js';
import type { GroupedState } from './buildGroupedTool.js';
import { closeGroup, GroupBuilder } from './GroupBuilder.js';
import { checkSegment } from './toActionDef.js';

/** The callback of `.group()`: declares the group's actions on the builder it gets. */
export type ConfigureGroup<Ctx, Common> = (group: GroupBuilder<Ctx, Common>) => GroupBuilder<Ctx, Common> | void;

/**
 * What `.group(name, description, configure)` adds to a grouped tool's state: the group and its actions,
 * keyed `<group>.<action>` and carrying the group's middlewares. Throws a `DefinitionError` naming the tool
 * and the group for a group declared twice, an empty one, or one beside ungrouped actions; `isNewKey`
 * refuses an action key the tool has already.
 */
export function addGroup<Ctx, Common>(
  state: GroupedState<Ctx>,
  group: { name: string; description: string | undefined; configure: ConfigureGroup<Ctx, Common> | undefined },
  assertNewKey: (key: string) => void,
): Pick<GroupedState<Ctx>, 'groups' | 'actions'> {
  const tool = state.name;
  const { name, description, configure } = group;
  checkSegment(tool, 'group', name);
  if (typeof configure !== 'function') {
    throw new DefinitionError(
      'TOOL_ACTION',
      `Group "${name}" of tool "${tool}" has no callback; pass g => g.action({ … }).`,
      { tool, group: name },
    );
  }
  if (state.groups.some((g) => g.name === name)) {
    throw new DefinitionError(
      'TOOL_ACTION',
      `Tool "${tool}" declares the group "${name}" twice; put all of its actions in one .group() call.`,
      { tool, group: name },
    );
  }
  const ungrouped = state.actions.find((a) => a.group === undefined);
  if (ungrouped !== undefined) {
    throw new DefinitionError(
      'TOOL_ACTION',
      `Tool "${tool}" mixes the ungrouped action "${ungrouped.key}" with groups; put it in a group or declare no groups.`,
      { tool, action: ungrouped.key },
    );
  }
  const builder = new GroupBuilder<Ctx, Common>({ tool, name, middlewares: [], actions: [] });
  configure(builder);
  const closed = builder[closeGroup]();
  if (closed.actions.length === 0) {
    throw new DefinitionError(
      'TOOL_ACTION',
      `Group "${name}" of tool "${tool}" has no actions; add them in the callback: g => g.action({ … }).`,
      { tool, group: name },
    );
  }
  for (const a of closed.actions) assertNewKey(a.key);
  const added = closed.actions.map((a) => Object.freeze({ ...a, middlewares: Object.freeze([...closed.middlewares]) }));
  return {
    groups: Object.freeze([...state.groups, Object.freeze({ name, description })]),
    actions: Object.freeze([...state.actions, ...added]),
  };
}
