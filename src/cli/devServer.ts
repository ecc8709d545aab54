// The child process of `mcp-fusion dev`: loads the module, serves its registry with the dev console on, and
// tells the parent its URLs and the files it loaded (IPC). The parent restarts it when one of those changes.
import { devTokens } from '../auth/devTokens.js';
import type { AuthOptions } from '../auth/types.js';
import { ServerStartError } from '../errors/FusionError.js';
import { startServer } from '../server/app/startServer.js';
import { trackModuleGraph } from './dev/moduleGraph.js';
import { prepareLoader } from './importModule.js';
import { loadTarget, type TargetSelectors } from './loadTarget.js';

/** Sends `message` to the parent, resolved once it is handed over (so an exit right after does not lose it). */
const tell = (message: object): Promise<void> =>
  new Promise((done) => (process.send === undefined ? done() : process.send(message, () => done())));

const [module = '', selectorsJson = '{}'] = process.argv.slice(2);
const { PORT, HOST, MCP_FUSION_DEV_TOKEN, MCP_FUSION_DEV_AUTH } = process.env;
let graph: ReturnType<typeof trackModuleGraph> | undefined;
try {
  // The module's loader first: the graph's hook, registered next, wraps it and reports the files it maps imports to.
  await prepareLoader(module, process.cwd());
  graph = trackModuleGraph((files) => void tell({ type: 'files', files }));
  const target = await loadTarget(module, process.cwd(), JSON.parse(selectorsJson) as TargetSelectors);
  await graph.flush();
  const server = await startServer(target.registry, {
    ...target.options,
    ...(MCP_FUSION_DEV_AUTH === undefined ? {} : { auth: devAuth(target.options, MCP_FUSION_DEV_AUTH) }),
    port: Number(PORT ?? 3000),
    host: HOST ?? '127.0.0.1',
    devConsole: { ...(MCP_FUSION_DEV_TOKEN !== undefined ? { token: MCP_FUSION_DEV_TOKEN } : {}), announce: () => {} },
  });
  process.once('SIGTERM', () => void server.close().then(() => process.exit(0)));
  await tell({ type: 'ready', url: server.url, consoleUrl: server.consoleUrl });
} catch (error) {
  // The files loaded before the failure are watched too: saving the fix reloads.
  await graph?.flush();
  const message = error instanceof Error ? error.message : String(error);
  // A server that cannot start (its port is taken) is not fixed by saving a module: the parent stops.
  if (error instanceof ServerStartError) await tell({ type: 'fatal', message });
  else {
    process.stderr.write(`mcp-fusion dev: ${message}\n`);
    await tell({ type: 'failed' });
  }
  process.exit(1);
}

/**
 * The module's auth option with `--dev-token`'s verifier in place of its own; the resource is not compared
 * (development tokens name none), required scopes and the metadata document stay.
 */
function devAuth(options: object, json: string): AuthOptions {
  const { resource: _resource, ...auth } = (options as { auth?: AuthOptions }).auth ?? ({} as Partial<AuthOptions>);
  return { ...auth, verifier: devTokens(JSON.parse(json) as Record<string, string[]>) };
}
