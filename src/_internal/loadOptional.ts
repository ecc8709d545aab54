import { MissingPeerError } from '../errors/FusionError.js';

const cache = new Map<string, Promise<unknown>>();
const injected = new Map<string, unknown>();

/** Optional peers mcp-fusion may load, and what they are for. */
const PURPOSE: Record<string, string> = {
  xstate: 'the FSM State Gate XState engine',
  jose: 'jwksVerifier (JWT access tokens checked against a JWKS)',
  '@opentelemetry/api': 'the tracing option (OpenTelemetry spans and metrics)',
  bullmq: 'task workers (BullTaskQueue, startTaskWorker)',
};

/** The optional peers loaded through this helper. */
type OptionalPeer = 'xstate' | 'jose' | '@opentelemetry/api' | 'bullmq';

/** Lets users hand over a module instead of having it imported (bundlers, tests). */
export function provideOptional(name: string, module: unknown): void {
  injected.set(name, module);
  cache.delete(name);
}

/**
 * Imports an optional peer once, lazily, with a dynamic `import()`. Resolves `undefined` when it is not
 * installed, so callers can fall back.
 */
export function loadOptional<T>(name: OptionalPeer): Promise<T | undefined> {
  if (injected.has(name)) return Promise.resolve(injected.get(name) as T);
  let pending = cache.get(name);
  if (pending === undefined) {
    pending = import(name).catch(() => undefined);
    cache.set(name, pending);
  }
  return pending as Promise<T | undefined>;
}

/**
 * Like {@link loadOptional}, but throws a {@link MissingPeerError} saying what to install.
 * `purpose` names what needs the package (default: the known purpose of `name`).
 */
export async function requireOptional<T>(
  name: OptionalPeer,
  purpose: string | undefined = PURPOSE[name] ?? name,
): Promise<T> {
  purpose ??= PURPOSE[name] ?? name;
  const mod = await loadOptional<T>(name);
  if (mod === undefined) {
    throw new MissingPeerError(
      'MISSING_PEER',
      `${purpose} needs the optional package "${name}"; run \`npm install ${name}\`${name === 'xstate' ? ' or choose the built-in engine' : ''}.`,
      { package: name },
    );
  }
  return mod;
}

/**
 * Synchronously: `true` when the peer was handed over or resolves from the working directory (Node's
 * `module.createRequire`, reached through `process.getBuiltinModule` so that no runtime needs `node:`
 * imports or `import.meta`), `false` when it was handed over as `undefined` or does not resolve,
 * `undefined` when this runtime cannot tell (workerd, browsers, Node before 20.16).
 */
export function optionalAvailable(name: OptionalPeer): boolean | undefined {
  if (injected.has(name)) return injected.get(name) !== undefined;
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown; cwd?: () => string } }).process;
  const mod = proc?.getBuiltinModule?.('node:module') as
    | { createRequire?: (from: string) => { resolve(id: string): string } }
    | undefined;
  if (typeof mod?.createRequire !== 'function' || typeof proc?.cwd !== 'function') return undefined;
  try {
    mod.createRequire(`${proc.cwd()}/`).resolve(name);
    return true;
  } catch {
    return false;
  }
}
