import { describeValue } from '../_internal/describeValue.js';
import { isInputRequired } from '../protocol/normalizeResult.js';
import { JsonRpcCode, WireError } from '../errors/WireError.js';
import type { BlobResourceContents, ReadResourceResult, ResourceReturn, TextResourceContents } from './types.js';

/**
 * Shapes what a resource handler returned into a `ReadResourceResult`: text and bytes become one item,
 * `{ text }` / `{ blob }` objects and lists of them get the requested `uri` and the resource's
 * `mimeType` where they set none, a `{ contents }` result is completed the same way. `undefined` and
 * `null` give undefined (the caller answers "Resource not found"); anything else throws an internal
 * error naming the resource. An `input_required` return passes through untouched.
 */
export function normalizeReadResult(
  value: ResourceReturn,
  uri: string,
  mimeType: string | undefined,
): ReadResourceResult | undefined {
  if (value === undefined || value === null) return undefined;
  if (isInputRequired(value)) return value as unknown as ReadResourceResult;
  if (Array.isArray(value)) return { contents: value.map((item, i) => toContents(item, uri, mimeType, i)) };
  if (isResult(value))
    return { ...value, contents: (value.contents as unknown[]).map((item, i) => toContents(item, uri, mimeType, i)) };
  return { contents: [toContents(value, uri, mimeType, undefined)] };
}

function toContents(
  item: unknown,
  uri: string,
  mimeType: string | undefined,
  index: number | undefined,
): TextResourceContents | BlobResourceContents {
  if (typeof item === 'string') return withMime({ uri, text: item }, mimeType);
  if (item instanceof Uint8Array) return withMime({ uri, blob: Buffer.from(item).toString('base64') }, mimeType);
  if (isObject(item)) {
    const base: { uri: string; mimeType?: string; _meta?: Record<string, unknown> } = {
      uri: typeof item.uri === 'string' ? item.uri : uri,
    };
    const mime = typeof item.mimeType === 'string' ? item.mimeType : mimeType;
    if (mime !== undefined) base.mimeType = mime;
    if (isObject(item._meta)) base._meta = item._meta;
    if (typeof item.text === 'string') return { ...base, text: item.text };
    if (typeof item.blob === 'string') return { ...base, blob: item.blob };
    if (item.blob instanceof Uint8Array) return { ...base, blob: Buffer.from(item.blob).toString('base64') };
  }
  const where = index === undefined ? '' : ` at index ${index}`;
  throw new WireError(
    JsonRpcCode.InternalError,
    `Resource "${uri}" returned ${describeValue(item)}${where}; its handler must return a string, bytes, { text }, { blob }, a list of those or { contents: [...] }.`,
  );
}

function withMime<T extends { uri: string; mimeType?: string }>(contents: T, mimeType: string | undefined): T {
  if (mimeType !== undefined) contents.mimeType = mimeType;
  return contents;
}

function isResult(value: unknown): value is ReadResourceResult {
  return isObject(value) && Array.isArray(value.contents);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
