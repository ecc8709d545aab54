// The child process of `mcp-fusion dev`: loads the module, serves its registry with the dev console on, and
// tells the parent its URLs (IPC). The parent restarts it when a file changes.
import { startServer } from '../server/startServer.js';
import { loadTarget, type TargetSelectors } from './loadTarget.js';

const [module = '', selectorsJson = '{}'] = process.argv.slice(2);
const { PORT, HOST, MCP_FUSION_DEV_TOKEN } = process.env;
try {
  const target = await loadTarget(module, process.cwd(), JSON.parse(selectorsJson) as TargetSelectors);
  const server = await startServer(target.registry, {
    ...target.options,
    port: Number(PORT ?? 3000),
    host: HOST ?? '127.0.0.1',
    devConsole: { ...(MCP_FUSION_DEV_TOKEN !== undefined ? { token: MCP_FUSION_DEV_TOKEN } : {}), announce: () => {} },
  });
  process.once('SIGTERM', () => void server.close().then(() => process.exit(0)));
  process.send?.({ type: 'ready', url: server.url, consoleUrl: server.consoleUrl });
} catch (error) {
  process.stderr.write(`mcp-fusion dev: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
