import type { Ticket } from './core/CallTracker.js';
import type { ResolvedCall } from './stages/pickAction.js';

/**
 * What the HTTP front found for one JSON-RPC message of a request, handed on to the runtime so that it is
 * not found again or counted twice: the route of a `tools/call` (resolved for its scope challenge), and the
 * message's tickets in the count of requests in flight (reserved by the call budget; more than one when a batch
 * repeats an id), each adopted by the handler of one message.
 */
export interface FrontNote {
  call?: ResolvedCall | undefined;
  tickets?: Ticket[] | undefined;
}

/**
 * The per-request channel from the HTTP front to the method handlers. The front notes what it found on the
 * `Request` it hands to the transport, per message id (a batch has several); the SDK hands that same
 * `Request` to the handler as `ctx.http.req` (mcp-fusion's own transports pass it as `request`, as the SDK's
 * do), where the handler takes the note. Requests that never passed the front (stdio, in-memory, a host
 * without it) have none: their handlers find things as they always do.
 */
const notes = new WeakMap<object, Map<unknown, FrontNote>>();

/** The note of message `id` of `request`, made on first use (the front writes its findings on it). */
export function noteOf(request: Request, id: unknown): FrontNote {
  let byId = notes.get(request);
  if (byId === undefined) notes.set(request, (byId = new Map()));
  let note = byId.get(id);
  if (note === undefined) byId.set(id, (note = {}));
  return note;
}

/** The note of message `id` of the request an SDK handler context (`ctx.http.req`) carries, if the front left one. */
export function frontNoteOf(ctx: unknown, id: unknown): FrontNote | undefined {
  const req = (ctx as { http?: { req?: unknown } } | undefined)?.http?.req;
  return typeof req === 'object' && req !== null ? notes.get(req)?.get(id) : undefined;
}

/** Moves the notes of `from` to `to`, a request rebuilt from it before it reaches the transport. */
export function carryNotes(from: Request, to: Request): void {
  const byId = notes.get(from);
  if (byId !== undefined && from !== to) notes.set(to, byId);
}

/**
 * The ticket the HTTP front reserved for the message an SDK handler context answers (`ctx.http.req`, and the
 * request id), taken once; `undefined` without one (the handler then counts itself).
 */
export function reservedTicket(ctx: unknown): Ticket | undefined {
  const id = (ctx as { mcpReq?: { id?: unknown } } | undefined)?.mcpReq?.id;
  return frontNoteOf(ctx, id)?.tickets?.shift();
}
