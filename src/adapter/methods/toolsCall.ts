import type { RequestContext } from '../../surface/types.js';
import { frontNoteOf } from '../../runtime/frontNotes.js';
import { resolveCall, sealTargetOf } from '../../runtime/stages/pickAction.js';
import { defineMethod } from './MethodDefinition.js';

/** `tools/call`: a tool's call (a task-supporting tool's through the task dispatch), its requestState opened first. */
export const toolsCall = defineMethod({
  method: 'tools/call',
  // ToolRuntime logs its failures ('tools/call failed').
  logsFailures: true,
  needs: () => true,
  handler: (w) => {
    const tools = w.runtime.tools;
    const { taskDispatch } = w;
    return (request: { params: { name: string; arguments?: Record<string, unknown> } }, ctx, ticket) => {
      const { name, arguments: args } = request.params;
      // The route is resolved once per call and handed on (the seal target, the task dispatch, the tool
      // runtime): over HTTP the front resolved it already (its scope challenge) and noted it for this message.
      const noted = frontNoteOf(ctx, (ctx as { mcpReq?: { id?: unknown } }).mcpReq?.id)?.call;
      const resolved = noted?.name === name ? noted : resolveCall(tools.surface, name, args);
      const { route } = resolved;
      const rctx = w.contextOf(ctx, sealTargetOf(route, name, args));
      const call = (s: RequestContext) => {
        // The request's ticket (counted by the method wrapper) is held by the run too: a task's outlives it.
        const plain = () => tools.callTool(name, args, w.track(s), resolved, ticket);
        return taskDispatch === undefined ? plain() : taskDispatch(request.params, w.track(s), plain, resolved, ticket);
      };
      return rctx instanceof Promise ? rctx.then(call) : call(rctx);
    };
  },
});
