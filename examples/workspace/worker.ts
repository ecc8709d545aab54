import { createFusionApp, type FusionApp } from 'mcp-fusion';
import { registry, workspaceOptions } from './registry.js';

/** The worker's bindings (`vars` in wrangler.jsonc): the public hostname(s) and browser origins to accept. */
export interface WorkerEnv {
  /** Comma-separated `Host` names, e.g. `mcp.example.com` (default: localhost names only). */
  ALLOWED_HOSTS?: string;
  /** Comma-separated browser origins' hostnames (default: localhost names only). */
  ALLOWED_ORIGINS?: string;
}

const list = (value: string | undefined) =>
  value
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);

// Built on the first request: the bindings (`env`) arrive with it.
let app: FusionApp | undefined;

/** The workspace example as a fetch handler: Cloudflare Workers, Deno, Bun, or any fetch-shaped host. */
export default {
  fetch(request: Request, env: WorkerEnv = {}): Promise<Response> {
    const hosts = list(env.ALLOWED_HOSTS);
    const origins = list(env.ALLOWED_ORIGINS);
    app ??= createFusionApp(registry, {
      ...workspaceOptions(),
      ...(hosts !== undefined ? { allowedHosts: hosts } : {}),
      ...(origins !== undefined ? { allowedOrigins: origins } : {}),
    });
    return app.fetch(request);
  },
};
