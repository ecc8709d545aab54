import { defineStage } from './StageDefinition.js';

/** Run-time switch: a disabled tool is answered as unknown, with what is available now. Every tool has it. */
export const switchStage = defineStage({
  name: 'switch',
  tools: {
    appliesTo: () => true,
    build:
      (_tool, { toolSwitch, hidden }) =>
      (call, next) =>
        toolSwitch.isDisabled(call.tool.name) ? hidden(call) : next(call),
  },
});
