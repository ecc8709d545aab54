import { messages } from '../../protocol/messages.js';
import { errorResult } from '../../protocol/normalizeResult.js';
import type { HandlerExtra, ToolResponse } from '../../protocol/types.js';
import type { BuiltGroupedTool, GroupedState } from './buildGroupedTool.js';

/**
 * Runs one call as the grouped tool would: picks the action from the discriminator, validates the rest
 * strictly (common fields + the action's), then runs the action's compiled chain. Problems are `isError`
 * results written for the agent.
 */
export async function executeGrouped<Ctx>(
  built: BuiltGroupedTool<Ctx>,
  state: Pick<GroupedState<Ctx>, 'name' | 'discriminator'>,
  call: { ctx: Ctx; args: Record<string, unknown> | undefined; extra: HandlerExtra },
): Promise<ToolResponse> {
  const { name, discriminator } = state;
  const { [discriminator]: key, ...rest } = isRecord(call.args) ? call.args : {};
  const tool = typeof key === 'string' ? built.byKey.get(key) : undefined;
  if (tool === undefined) return errorResult(messages.unknownAction(name, discriminator, key, [...built.byKey.keys()]));
  const parsed = tool.validate(rest);
  if (!parsed.ok) {
    return errorResult(
      messages.invalidActionArguments(
        name,
        discriminator,
        key as string,
        parsed.issues,
        Object.keys(tool.inputSchema.properties ?? {}),
      ),
    );
  }
  return tool.run(parsed.value, call.ctx, call.extra);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
