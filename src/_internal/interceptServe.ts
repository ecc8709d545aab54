// While the `mcp-fusion` command line imports a user's module, a server the module starts is handed over
// instead of listening, so `inspect`, `lint` and `diagram` read its registry and exit. The switch is a
// global symbol, not module state: the module may load another copy of mcp-fusion than the CLI runs.
const KEY = Symbol.for('mcp-fusion.interceptServe');

/** Thrown by `startServer`/`serveStdio` while the CLI imports a module; carries what the server was given. */
export class ServeIntercepted extends Error {
  readonly registry: unknown;
  readonly options: unknown;
  readonly call: string;

  constructor(call: string, registry: unknown, options: unknown) {
    super(`${call}() was called while mcp-fusion's command line imported this module; the server was not started.`);
    this.name = 'ServeIntercepted';
    this.call = call;
    this.registry = registry;
    this.options = options;
  }
}

/** Called first by every function that starts a server: throws {@link ServeIntercepted} while the CLI imports a module. */
export function interceptServe(call: string, registry: unknown, options: unknown): void {
  if ((globalThis as Record<symbol, unknown>)[KEY] === true) throw new ServeIntercepted(call, registry, options);
}

/** Runs `load` with servers intercepted (the CLI's module import). */
export async function withServeIntercepted<T>(load: () => Promise<T>): Promise<T> {
  const global = globalThis as Record<symbol, unknown>;
  global[KEY] = true;
  try {
    return await load();
  } finally {
    delete global[KEY];
  }
}

/** Duck-typed: an interception thrown by another copy of mcp-fusion is recognised too. */
export function isServeIntercepted(error: unknown): error is ServeIntercepted {
  return (
    error instanceof Error &&
    error.name === 'ServeIntercepted' &&
    'registry' in error &&
    typeof (error as ServeIntercepted).call === 'string'
  );
}
