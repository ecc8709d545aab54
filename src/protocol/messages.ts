import type { ValidationIssue } from './types.js';
import { nearestNames } from '../_internal/nearestNames.js';
import { failureAdvice, failureReason } from './failureAdvice.js';

/**
 * Joins a description and a note appended to it as sentences: `Add a product to the cart` and
 * `Workflow "checkout": …` give `Add a product to the cart. Workflow "checkout": …`. A description that
 * already ends a sentence (or with a `[tag]`) keeps its punctuation; either part may be empty.
 */
export function joinSentences(description: string | undefined, note: string): string {
  const first = description?.trim() ?? '';
  const second = note.trim();
  if (first === '' || second === '') return first === '' ? second : first;
  return `${/[.!?…\]]["')]*$/.test(first) ? first : `${first}.`} ${second}`;
}

/** Texts written for the agent: what went wrong and what to do next. */
export const messages = {
  invalidArguments(tool: string, issues: readonly ValidationIssue[], accepted: readonly string[]): string {
    const lines = issues.map((i) => `- ${i.path === '' ? '(arguments)' : i.path}: ${i.message}`);
    const fields = accepted.length > 0 ? `Accepted fields: ${accepted.join(', ')}.` : 'This tool takes no arguments.';
    return `Invalid arguments for tool "${tool}":\n${lines.join('\n')}\n${fields} Fix the arguments and call "${tool}" again.`;
  },
  /** `available` holds only what the caller may see: the suggestions come from it, so they never name a hidden tool. */
  unknownTool(name: string, available: readonly string[]): string {
    const shown = available.slice(0, 50).join(', ');
    const near = nearestNames(name, available);
    const guess = near.length > 0 ? `Did you mean ${near.map((n) => `"${n}"`).join(' or ')}? ` : '';
    return `Unknown tool "${name}". ${guess}${available.length > 0 ? `Available tools: ${shown}${available.length > 50 ? ', …' : ''}.` : 'This server has no tools.'} Call tools/list to see them.`;
  },
  cancelled(tool: string): string {
    return `Tool "${tool}" was cancelled before it finished; its result was dropped. Its effects may be partial: check the current state before retrying.`;
  },
  /** A task's work returned but the task store could not be reached to keep its result. */
  claimFailed(tool: string, error: unknown): string {
    const why = error instanceof Error ? error.message : String(error);
    return `Tool "${tool}" finished, but its task could not be checked in the task store (${why}), so its result was dropped. Its effects may be partial: check the current state before retrying.`;
  },
  timedOut(tool: string, ms: number): string {
    return messages.ranOut(`Tool "${tool}"`, ms);
  },
  /** A prompt, resource or completion whose request was cancelled while its handler ran (`what`: `Prompt "review"`). */
  dropped(what: string): string {
    return `${what} was cancelled before it finished; its result was dropped.`;
  },
  /** A handler ran past its timeout (`what`: `Tool "notes.list"`, `Prompt "review"`). */
  ranOut(what: string, ms: number): string {
    return `${what} timed out after ${ms} ms and was cancelled. Its effects may be partial: check the current state before retrying.`;
  },
  /** The context factory threw `error`: whether calling again can help depends on what it was (see `failureAdvice`). */
  contextFailed(tool: string, error: unknown): string {
    return messages.noContext(`Tool "${tool}"`, error, `call "${tool}" again`);
  },
  /**
   * The context factory threw `error` before `what` ran (`Tool "x"`, `Prompt "review"`): a tool answers with
   * it as an `isError` result, prompts and resources as a JSON-RPC error; `again` is how to retry.
   */
  noContext(what: string, error: unknown, again: string): string {
    return `${what} could not run: the server failed to prepare the request context (${failureReason(error)}). ${failureAdvice(error, again)}`;
  },
  /**
   * A request the access token's scopes do not allow: `target` as the agent named it (`"billing.refund"`,
   * `prompt "review"`), what it `required` and what of it is `missing`; `kind` says what to continue without.
   */
  insufficientScope(
    target: string,
    required: readonly string[],
    missing: readonly string[],
    kind: 'tool' | 'prompt' | 'resource',
  ): string {
    const these = missing.length > 1 ? 'these scopes' : 'this scope';
    return `insufficient_scope: ${target} needs the scope${required.length > 1 ? 's' : ''} ${required.join(' ')}; the access token lacks ${missing.join(' ')}. Ask the user to authorize ${these} (a new token with scope="${required.join(' ')}"), or continue without this ${kind}.`;
  },
  invalidActionArguments(
    tool: string,
    discriminator: string,
    key: string,
    issues: readonly ValidationIssue[],
    accepted: readonly string[],
  ): string {
    const lines = issues.map((i) => `- ${i.path === '' ? '(arguments)' : i.path}: ${i.message}`);
    return `Invalid arguments for tool "${tool}" ("${discriminator}": "${key}"):\n${lines.join('\n')}\nAccepted fields for "${key}": ${[discriminator, ...accepted].join(', ')}. Fix the arguments and call "${tool}" again.`;
  },
  tooManyCalls(tool: string, limit: number, session: boolean): string {
    return `Tool "${tool}" was not run: ${limit} calls are already running for this ${session ? 'session' : 'client'}, the most allowed at once. Wait for one to finish, then call it again.`;
  },
  unknownAction(tool: string, discriminator: string, value: unknown, valid: readonly string[]): string {
    const given = value === undefined ? `no "${discriminator}"` : `"${discriminator}": ${JSON.stringify(value)}`;
    return `Tool "${tool}" was called with ${given}. Valid values of "${discriminator}": ${valid.join(', ')}. Call "${tool}" again with one of them.`;
  },
  /** A request whose JSON-RPC `id` is the id of a request still running in the same legacy session or stdio connection. */
  requestIdInUse(id: string | number, scope: 'session' | 'connection'): string {
    return `Request id ${JSON.stringify(id)} is already in use by a request still running ${scope === 'session' ? 'in this session' : 'on this connection'}; send each request with a new id.`;
  },
};
