// Which files a process imports, as Node's module loader resolves them: `mcp-fusion dev` watches these, not a folder.
import { createRequire, register } from 'node:module';
import { fileURLToPath } from 'node:url';
import { MessageChannel } from 'node:worker_threads';

/**
 * The loader hooks, as source: every `file:` URL resolved (by the loaders registered before, e.g. tsx, so
 * `./x.js` is reported as the `x.ts` it maps to) is posted once to the main thread; a posted `flush` comes back
 * after every URL resolved before it. A data URL, so the same hooks run from the sources and from dist.
 */
const HOOKS = `let port; const seen = new Set();
export function initialize(data) { port = data.port; port.on('message', (m) => port.postMessage(m)); }
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  if (result.url.startsWith('file:') && !seen.has(result.url)) { seen.add(result.url); port.postMessage({ url: result.url }); }
  return result;
}`;

/** The files a process loads, reported as they are resolved. */
export interface ModuleGraph {
  /** Resolves once every file resolved so far (and every CommonJS file required) has been reported. */
  flush(): Promise<void>;
}

/**
 * Starts recording the files this process imports from now on (ES modules through a loader hook, CommonJS
 * ones from `require.cache` at each {@link ModuleGraph.flush}) and hands new ones to `onFiles` as absolute
 * paths. Files under `node_modules` are left out: packages change on install, not while you edit.
 * Register it after any other loader (tsx) so it sees the files that loader maps imports to.
 */
export function trackModuleGraph(onFiles: (files: string[]) => void): ModuleGraph {
  const { port1, port2 } = new MessageChannel();
  const known = new Set<string>();
  const report = (paths: Iterable<string>): void => {
    const fresh = [...paths].filter((p) => !known.has(p) && !/[\\/]node_modules[\\/]/.test(p));
    for (const p of fresh) known.add(p);
    if (fresh.length > 0) onFiles(fresh);
  };
  let flushes = 0;
  const waiting = new Map<number, () => void>();
  port1.on('message', (message: { url?: string; flush?: number }) => {
    if (message.url !== undefined) report([fileURLToPath(message.url)]);
    if (message.flush !== undefined) {
      waiting.get(message.flush)?.();
      waiting.delete(message.flush);
      if (waiting.size === 0) port1.unref();
    }
  });
  port1.unref();
  register(`data:text/javascript,${encodeURIComponent(HOOKS)}`, { data: { port: port2 }, transferList: [port2] });
  const cjs = createRequire(import.meta.url).cache;
  return {
    flush: () =>
      new Promise<void>((done) => {
        const id = ++flushes;
        waiting.set(id, () => {
          report(Object.keys(cjs));
          done();
        });
        port1.ref();
        port1.postMessage({ flush: id });
      }),
  };
}
