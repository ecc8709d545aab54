import { TASK_PARAMS, taskHandlerOf } from '../taskHandlers.js';
import { defineMethod, type MethodDefinition, type MethodWire } from './MethodDefinition.js';

/**
 * The definition of task method `method`: answered on the v2 SDK line when a tool supports tasks and the
 * era has the method; installed alone (a modern one with its params schema, as the SDK wants for extension
 * methods).
 */
export function taskMethod(
  method: string,
  alone: MethodDefinition['alone'] = (w: MethodWire) => ({ schema: w.era === 'modern' ? TASK_PARAMS : undefined }),
): MethodDefinition {
  return defineMethod({
    method,
    needs: (w) => w.tasks !== undefined && taskHandlerOf(w.tasks, w.era, method) !== undefined,
    handler: (w) => {
      const handler = taskHandlerOf(w.tasks!, w.era, method)!;
      return (request, ctx) => handler(request?.params ?? {}, w.rctxOf(ctx));
    },
    alone,
  });
}
