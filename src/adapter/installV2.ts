import type { MethodHandler } from './contentHandlers.js';
import { SKILL_METHODS } from './skillHandlers.js';

/** The part of a v2 SDK `Server` that takes request handlers, in both of its forms. */
interface HandlerTable {
  setRequestHandler(method: any, schemasOrHandler: any, handler?: any): void;
}

/** A Standard Schema that accepts any params as they are (the SDK's `Server` has checked them already). */
const CHECKED_BY_SERVER = Object.freeze({
  params: Object.freeze({
    '~standard': Object.freeze({
      version: 1,
      vendor: 'mcp-fusion',
      validate: (value: unknown) => ({ value }),
    }),
  }),
});

/**
 * Installs a request handler on a v2 `Server`. `tools/call` goes in with a pass-through params schema: the
 * SDK's `Server` checks every `tools/call` request against the spec schema in its own wrapper, before the
 * handler, and its result after; a handler installed without a schema would have the same request parsed a
 * second time. Extension methods (the skills methods) need a params schema to be installed at all; their
 * handlers check their params themselves; `schema`, when given, is the one the SDK validates the params with (a
 * modern task method's). The handler still receives `{ method, params }`.
 */
export function installV2(server: HandlerTable, method: string, handler: MethodHandler, schema?: unknown): void {
  const checked = schema ?? (method === 'tools/call' || SKILL_METHODS.has(method) ? CHECKED_BY_SERVER : undefined);
  if (checked === undefined) server.setRequestHandler(method, handler);
  else server.setRequestHandler(method, checked, (params: unknown, ctx: unknown) => handler({ method, params }, ctx));
}
