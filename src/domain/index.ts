// Domain model (Layer 1): the public names (the root barrel re-exports this list).
export { BaseModel, type ModelOptions } from './BaseModel.js';
export { Group } from './Group.js';
export { GroupItem } from './GroupItem.js';
export { Tool, type ToolOptions } from './Tool.js';
export { Prompt, type PromptOptions } from './Prompt.js';
export { PromptArgument, type PromptArgumentOptions } from './PromptArgument.js';
export { Resource, type ResourceOptions } from './Resource.js';
export { ConverterBase } from './ConverterBase.js';
export { ToolConverter, type NamingOptions } from './ToolConverter.js';
export { PromptConverter } from './PromptConverter.js';
export { ResourceConverter } from './ResourceConverter.js';
export type {
  Icon,
  ResourceAnnotations,
  WirePrompt,
  WirePromptArgument,
  WireResource,
  WireResourceTemplate,
  WireTool,
} from './types.js';
