/** The contenders of the quick tools/call scripts (bench/abCall.ts, bench/loadAb.ts, bench/profileCall.ts), by name. */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as fusion from 'mcp-fusion';
import {
  bareV2,
  callArgs,
  floorServer,
  fullStackAnswer,
  fusionRegistry,
  isGated,
  fusionServer,
  groupedCallArgs,
  threeMiddlewares,
  variantOptions,
  type Fusion,
  type Variant,
} from './fixtures.js';

/** This tree's compiled package, or the one of the checkout at `dir` (its `dist/index.js`). */
export async function fusionOf(dir: string | undefined): Promise<Fusion> {
  if (dir === undefined) return fusion;
  return (await import(pathToFileURL(resolve(dir, 'dist/index.js')).href)) as Fusion;
}

/** The fusion contenders, by name. */
const CONTENDERS: Record<string, { variant: Variant; middlewares: boolean }> = {
  plain: { variant: 'plain', middlewares: false },
  sync: { variant: 'sync', middlewares: false },
  fsm: { variant: 'fsm', middlewares: false },
  middlewares: { variant: 'plain', middlewares: true },
  full: { variant: 'sync+fsm', middlewares: true },
  grouped: { variant: 'grouped', middlewares: false },
};

/**
 * A server factory for a contender named on the command line: `bare`, `floor`, `floorfull` (the floor answering
 * the full stack's result) or one of {@link CONTENDERS}; and the arguments it is called with. A fusion contender
 * with `@<dir>` (`plain@../main`) is built with the compiled package of another checkout (its `dist/index.js`),
 * so that before and after run in one process.
 */
export async function contender(
  who: string,
  n: number,
): Promise<{ server: () => { connect(t: never): Promise<void> }; args: typeof callArgs | typeof groupedCallArgs }> {
  const args = who.startsWith('grouped') ? groupedCallArgs : callArgs;
  if (who === 'bare') return { server: () => bareV2(n), args };
  if (who === 'floor') return { server: () => floorServer(n), args };
  if (who === 'floorfull') {
    const answer = await fullStackAnswer(n);
    return { server: () => floorServer(n, undefined, answer), args };
  }
  const [name = who, dir] = who.split('@');
  const v = CONTENDERS[name];
  if (v === undefined)
    throw new Error(`unknown contender "${who}": use bare, floor, floorfull, ${Object.keys(CONTENDERS).join(', ')}`);
  const lib = await fusionOf(dir);
  const middlewares = v.middlewares ? threeMiddlewares : [];
  return {
    server: () =>
      fusionServer(
        fusionRegistry(n, { middleware: middlewares, lib, gated: isGated(v.variant) }),
        variantOptions(v.variant, n, lib),
      ),
    args,
  };
}
