/**
 * Internals the bench measures directly (glob compilation, overlap checks, the Redis scripts), loaded from
 * the compiled `dist/` like the public API (`npm run bench` builds first); typed by their sources.
 */
import type * as CheckStateSync from '../src/state-sync/checkStateSync.js';
import type * as CompileGlob from '../src/state-sync/compileGlob.js';
import type * as GlobCovers from '../src/state-sync/globCovers.js';
import type * as FsmScripts from '../src/redis/_internal/fsmScripts.js';

const fromDist = (path: string): Promise<unknown> => import(new URL(`../dist/${path}`, import.meta.url).href);

export const { stateSyncWarnings } = (await fromDist('state-sync/checkStateSync.js')) as typeof CheckStateSync;
export const { compileGlob } = (await fromDist('state-sync/compileGlob.js')) as typeof CompileGlob;
export const { globCovers } = (await fromDist('state-sync/globCovers.js')) as typeof GlobCovers;
export const { ACQUIRE, END, writeArgs } = (await fromDist('redis/_internal/fsmScripts.js')) as typeof FsmScripts;
