import { describeValue } from '../_internal/describeValue.js';
import { isInputRequired } from '../protocol/normalizeResult.js';
import { JsonRpcCode, WireError } from '../errors/WireError.js';
import type { GetPromptResult, PromptMessage, PromptReturn } from './types.js';

/**
 * Shapes what a prompt handler returned into a `GetPromptResult`: a string becomes one user text message,
 * an array becomes the messages (strings and string `content` become text), an object with `messages`
 * is kept. The prompt's description is added when the result has none. Anything else throws an
 * internal error naming the prompt. An `input_required` return passes through untouched.
 */
export function normalizePromptResult(
  value: PromptReturn,
  prompt: string,
  description: string | undefined,
): GetPromptResult {
  if (isInputRequired(value)) return value as unknown as GetPromptResult;
  let result: GetPromptResult;
  if (typeof value === 'string') result = { messages: [userText(value)] };
  else if (Array.isArray(value)) result = { messages: value.map((m, i) => toMessage(m, prompt, i)) };
  else if (isObject(value) && Array.isArray(value.messages)) {
    result = { ...value, messages: (value.messages as unknown[]).map((m, i) => toMessage(m, prompt, i)) };
  } else {
    throw new WireError(
      JsonRpcCode.InternalError,
      `Prompt "${prompt}" returned ${describeValue(value)}; its handler must return a string, an array of messages or { messages: [...] }.`,
    );
  }
  if (description !== undefined && result.description === undefined) result.description = description;
  return result;
}

function toMessage(message: unknown, prompt: string, index: number): PromptMessage {
  if (typeof message === 'string') return userText(message);
  if (isObject(message) && (message.role === 'user' || message.role === 'assistant')) {
    if (typeof message.content === 'string')
      return { role: message.role, content: { type: 'text', text: message.content } };
    if (isObject(message.content) && typeof message.content.type === 'string')
      return message as unknown as PromptMessage;
  }
  throw new WireError(
    JsonRpcCode.InternalError,
    `Prompt "${prompt}" returned an invalid message at index ${index} (${describeValue(message)}); write { role: 'user' | 'assistant', content: 'text' or a content block }.`,
  );
}

function userText(text: string): PromptMessage {
  return { role: 'user', content: { type: 'text', text } };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
