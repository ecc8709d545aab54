import type { FusionRuntime } from '../runtime/FusionRuntime.js';

/** The server capabilities mcp-fusion declares (a plain object the SDK's `ServerCapabilities` accepts). */
export interface FusionCapabilities {
  tools: { listChanged: true };
  prompts?: { listChanged: true };
  resources?: { listChanged: true; subscribe?: true };
  completions?: Record<string, never>;
  logging?: Record<string, never>;
}

/**
 * Exactly the capabilities a server needs for what `runtime` serves: tools always, prompts when its
 * registry has a prompt, resources when it has a resource or a resource template (with `subscribe` when
 * `resourceSubscriptions` is on), `completions` when a prompt or template declares a completer, and
 * `logging` when the `logging` option is on.
 */
export function capabilitiesFor(runtime: FusionRuntime<any>): FusionCapabilities {
  const { content, features } = runtime;
  const capabilities: FusionCapabilities = { tools: { listChanged: true } };
  if (content?.hasPrompts === true) capabilities.prompts = { listChanged: true };
  if (content?.hasResources === true)
    capabilities.resources =
      features.subscriptions !== undefined ? { listChanged: true, subscribe: true } : { listChanged: true };
  if (content?.hasCompletions === true) capabilities.completions = {};
  if (features.logging) capabilities.logging = {};
  return capabilities;
}
