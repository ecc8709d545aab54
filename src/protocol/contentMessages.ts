import { describeFailure } from './failureAdvice.js';
import { messages } from './messages.js';

/** Texts of the JSON-RPC errors of prompts and resources: what went wrong and what to do next. */
export const contentMessages = {
  unknownPrompt(name: string, available: readonly string[]): string {
    return `Unknown prompt "${name}". ${available.length > 0 ? `Available prompts: ${list(available)}.` : 'This server has no prompts.'} Call prompts/list to see them.`;
  },
  promptNameMissing(available: readonly string[]): string {
    return `prompts/get needs params.name, the name of a prompt.${available.length > 0 ? ` Available prompts: ${list(available)}.` : ''}`;
  },
  resourceNotFound(uri: string, resources: readonly string[], templates: readonly string[]): string {
    const known = [
      resources.length > 0 ? `resources: ${list(resources)}` : '',
      templates.length > 0 ? `templates: ${list(templates)}` : '',
    ].filter(Boolean);
    return `Resource not found: "${uri}". ${known.length > 0 ? `Known ${known.join('; ')}.` : 'This server has no resources.'} Call resources/list or resources/templates/list to see them.`;
  },
  resourceUriTooLong(length: number, max: number): string {
    return `Invalid resource URI: it is ${length} characters long, over the limit of ${max}. Read a resource listed by resources/list or resources/templates/list.`;
  },
  resourceUriMissing(): string {
    return 'resources/read needs params.uri, the URI of a resource (a string).';
  },
  completionArgumentMissing(): string {
    return 'completion/complete needs params.argument with a string name (the argument to complete) and a string value (what the user typed so far).';
  },
  completionRefInvalid(): string {
    return 'completion/complete needs params.ref: { type: "ref/prompt", name } for a prompt argument, or { type: "ref/resource", uri } naming a resource template.';
  },
  /** `resources/subscribe` of a URI no resource the caller may read answers. */
  subscribeNotFound(uri: string): string {
    return `Resource not found: ${uri}. Call resources/list or resources/templates/list for the URIs you can subscribe to.`;
  },
  unknownCompletionResource(uri: string, templates: readonly string[]): string {
    return `No resource template "${uri}" to complete. ${templates.length > 0 ? `Templates: ${list(templates)}.` : 'This server has no resource templates.'} Call resources/templates/list to see them.`;
  },
  /** A prompt, resource or completion handler threw `error` (`what`: `Resource "app://x"`). */
  handlerFailed(what: string, error: unknown): string {
    const text = describeFailure(error, what, 'send the request again');
    return text.startsWith(what) ? text : `${what} failed: ${text}`;
  },
  contextFailed(what: string, error: unknown): string {
    return messages.noContext(what, error, 'send the request again');
  },
  listFailed(uriTemplate: string, error: unknown): string {
    const what = `Resource template "${uriTemplate}"`;
    const text = describeFailure(error, `${what} listing its resources`, 'send the request again');
    return text.startsWith(what) ? text : `${what} failed to list its resources: ${text}`;
  },
};

function list(names: readonly string[]): string {
  return `${names.slice(0, 50).join(', ')}${names.length > 50 ? ', …' : ''}`;
}
