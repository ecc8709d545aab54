import { errorResult } from '../../protocol/normalizeResult.js';
import { messages } from '../../protocol/messages.js';
import { protoKeyPath } from '../../protocol/protoKeys.js';
import { actionKey } from './pickAction.js';
import { defineStage } from './StageDefinition.js';

/** Strict validation of the arguments (every tool); an invalid call gets the issues and the accepted fields. */
export const validateStage = defineStage({
  name: 'validate',
  tools: {
    appliesTo: () => true,
    build: () => (call, next) => {
      const { tool, route, args } = call;
      const proto = protoKeyPath(args);
      const parsed =
        proto === undefined
          ? tool.validate(args)
          : { ok: false as const, issues: [{ path: proto, message: 'unknown field' }] };
      if (parsed.ok) {
        call.args = parsed.value as Record<string, unknown>;
        return next(call);
      }
      const accepted = Object.keys(tool.inputSchema.properties ?? {});
      const text =
        route.kind === 'flat'
          ? messages.invalidArguments(route.exposed, parsed.issues, accepted)
          : messages.invalidActionArguments(
              route.exposed,
              route.discriminator,
              actionKey(route, tool),
              parsed.issues,
              accepted,
            );
      return Promise.resolve(errorResult(text));
    },
  },
});
