import { contentOf } from './contentLink.js';
import type { RequestPipeline } from './RequestPipeline.js';

/** The server capabilities mcp-fusion declares (a plain object the SDK's `ServerCapabilities` accepts). */
export interface FusionCapabilities {
  tools: { listChanged: true };
  prompts?: { listChanged: true };
  resources?: { listChanged: true };
}

/**
 * Exactly the capabilities a server needs for what `pipeline` serves: tools always, prompts when its
 * registry has a prompt, resources when it has a resource or a resource template.
 */
export function capabilitiesFor(pipeline: RequestPipeline<any>): FusionCapabilities {
  const content = contentOf(pipeline);
  const capabilities: FusionCapabilities = { tools: { listChanged: true } };
  if (content?.hasPrompts === true) capabilities.prompts = { listChanged: true };
  if (content?.hasResources === true) capabilities.resources = { listChanged: true };
  return capabilities;
}
