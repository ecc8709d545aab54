import { copyOf } from '../_internal/copyOf.js';
import { META } from './metaKeys.js';
import { invalidationBlock } from './ResponseDecorator.js';
import type { CacheDirective, InvalidationMeta } from './types.js';

/** The parts of an MCP `CallToolResult` a decorator reads; every other field is copied through, in its place. */
export interface DecoratedResult {
  content: unknown[];
  isError?: boolean;
  _meta?: Record<string, unknown>;
  [key: string]: unknown;
}

/** One tool's State Sync on its results, compiled once per tool by {@link compileResultDecorator}. */
export type ResultDecorator = <R extends DecoratedResult>(result: R) => R;

/** What {@link compileResultDecorator} needs to know about one tool. */
export interface DecoratorParts {
  /** The tool's name: the `caused by` of its signal. */
  readonly causedBy: string;
  /** The patterns a successful call invalidates (none: the tool signals nothing). */
  readonly invalidates?: readonly string[] | undefined;
  /** The directive its results carry in `_meta['fusion/cacheControl']`, if any. */
  readonly cacheControl?: CacheDirective | undefined;
  /** The current time in ISO-8601 ({@link isoClock}: the same string within a millisecond). */
  readonly stamp: () => string;
  /** Hears each invalidation before the decorated result is returned (observers, the last-invalidation log). */
  readonly announce?: ((meta: InvalidationMeta) => void) | undefined;
}

const identity: ResultDecorator = (result) => result;

/**
 * The State Sync decorator of one tool's results, with everything fixed per tool built here, once: the
 * frozen signal block, the frozen `_meta['fusion/invalidation']` value (rebuilt only when the millisecond
 * changes) and the `_meta` of a result that has none. Per call it copies the result once (a literal when
 * `content` is its only key), and its own `_meta` if any, with the signal block first and one merged `_meta` (the result's own keys in place,
 * then `'fusion/invalidation'`, then `'fusion/cacheControl'`): byte for byte what the stage wrote before.
 * A failed result (`isError: true`) is returned untouched, and so is every result of a tool with nothing
 * to say. The input result is never modified.
 * @example
 * const decorate = compileResultDecorator({ causedBy: 'tasks.update', invalidates: ['tasks.*'], stamp: isoClock(Date.now) });
 * decorate({ content: [{ type: 'text', text: 'ok' }] }).content[0];
 * // { type: 'text', text: '[System: Cache invalidated for tasks.* — caused by tasks.update]' }
 * @see docs/state-sync.md
 */
export function compileResultDecorator(parts: DecoratorParts): ResultDecorator {
  const { causedBy, invalidates, cacheControl, stamp, announce } = parts;
  if (invalidates === undefined || invalidates.length === 0)
    return cacheControl === undefined ? identity : directiveOnly(cacheControl);
  const patterns = Object.isFrozen(invalidates) ? invalidates : Object.freeze([...invalidates]);
  const block = Object.freeze({ type: 'text', text: invalidationBlock(patterns, causedBy) });
  let at = '';
  let meta: InvalidationMeta = Object.freeze({ patterns, causedBy, at });
  let bare: Record<string, unknown> = {};
  return <R extends DecoratedResult>(result: R): R => {
    if (result.isError === true) return result;
    const now = stamp();
    if (now !== at) {
      at = now;
      meta = Object.freeze({ patterns, causedBy, at: now });
      bare = Object.freeze(
        cacheControl === undefined
          ? { [META.invalidation]: meta }
          : { [META.invalidation]: meta, [META.cacheControl]: cacheControl },
      );
    }
    announce?.(meta);
    const own = result._meta;
    const source = result.content;
    const content: unknown[] = [block];
    if (Array.isArray(source)) for (let i = 0; i < source.length; i++) content.push(source[i]);
    if (own === undefined && contentOnly(result)) return { content, _meta: bare } as unknown as R;
    let _meta = bare;
    if (own !== undefined) {
      _meta = copyOf(own);
      _meta[META.invalidation] = meta;
      if (cacheControl !== undefined) _meta[META.cacheControl] = cacheControl;
    }
    const out = copyOf(result);
    out.content = content;
    out._meta = _meta;
    return out;
  };
}

/** Results of a cached/stale tool that invalidates nothing carry only the directive. */
function directiveOnly(cacheControl: CacheDirective): ResultDecorator {
  const bare = Object.freeze({ [META.cacheControl]: cacheControl });
  return <R extends DecoratedResult>(result: R): R => {
    if (result.isError === true) return result;
    const own = result._meta;
    if (own === undefined && contentOnly(result)) return { content: result.content, _meta: bare } as unknown as R;
    let _meta: Record<string, unknown> = bare;
    if (own !== undefined) {
      _meta = copyOf(own);
      _meta[META.cacheControl] = cacheControl;
    }
    const out = copyOf(result);
    out._meta = _meta;
    return out;
  };
}

/**
 * True when `content` is the result's only key (what a handler's result usually is): a literal
 * `{ content, _meta }` then has the copy's keys in the copy's order at a third of its cost. Any other key,
 * an own `__proto__` included, takes the copy.
 */
function contentOnly(result: object): boolean {
  for (const key in result) if (key !== 'content') return false;
  return true;
}
