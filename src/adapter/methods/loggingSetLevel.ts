import { LOG_LEVELS } from '../sdkRequestContext.js';
import { defineMethod } from './MethodDefinition.js';

/** `logging/setLevel` on a v1 server without its own: mcp-fusion keeps the connection's level. */
export const loggingSetLevel = defineMethod({
  method: 'logging/setLevel',
  needs: (w) => w.v1Levels !== undefined,
  handler: (w) => (request: { params?: { level?: unknown } }, extra: any) => {
    if (typeof request?.params?.level === 'string' && LOG_LEVELS.includes(request.params.level))
      w.v1Levels!.set(extra?.sessionId ?? w.connectionId, request.params.level);
    return {};
  },
});
