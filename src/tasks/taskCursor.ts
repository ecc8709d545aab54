import { createHash } from 'node:crypto';

/** A `tasks/list` cursor that is not one this server gave this caller: `message` says what to do. */
export class TaskCursorError extends Error {
  override readonly name = 'TaskCursorError';
}

const restart = 'call tasks/list without a cursor to start again from the first page';

/** Ties a cursor to the principal it was issued to (not a secret: it only keeps one caller's cursor off another's listing). */
function ownerTag(owner: string): string {
  return createHash('sha256').update(owner).digest('base64url').slice(0, 16);
}

/** The opaque cursor of the page after `position` in `owner`'s listing. */
export function encodeTaskCursor(owner: string, position: string): string {
  return Buffer.from(JSON.stringify({ o: ownerTag(owner), p: position })).toString('base64url');
}

/**
 * The listing position a cursor names, for `owner`; throws {@link TaskCursorError} for a cursor that is not
 * one of ours (malformed, edited) or that was issued to another caller.
 */
export function decodeTaskCursor(owner: string, cursor: string): string {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    decoded = undefined;
  }
  const { o, p } = (typeof decoded === 'object' && decoded !== null ? decoded : {}) as { o?: unknown; p?: unknown };
  if (typeof o !== 'string' || typeof p !== 'string' || !/^\d{15}:[\w-]{1,100}$/.test(p))
    throw new TaskCursorError(`Invalid tasks/list cursor: it is not one this server issued; ${restart}.`);
  if (o !== ownerTag(owner))
    throw new TaskCursorError(`Invalid tasks/list cursor: it was issued to another caller; ${restart}.`);
  return p;
}
