import { defineMethod } from './MethodDefinition.js';

/** `tools/list`: the tools the caller may see now. */
export const toolsList = defineMethod({
  method: 'tools/list',
  // ToolRuntime logs its failures ('tools/list failed').
  logsFailures: true,
  needs: () => true,
  handler: (w) => (_request, ctx) => w.runtime.tools.listTools(w.track(w.rctxOf(ctx))),
});
