import { createFusionApp, type FusionApp } from 'mcp-fusion';
import { registry, workspaceOptions } from './registry.js';

let app: FusionApp | undefined;

export default {
  fetch(request: Request): Promise<Response> {
    app ??= createFusionApp(registry, workspaceOptions());
    return app.fetch(request);
  },
};
