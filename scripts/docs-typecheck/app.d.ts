// "Your app", as the docs' snippets assume it: names a snippet uses without declaring. Everything from
// mcp-fusion (and other packages) must be imported in the snippet itself; only the reader's own values
// live here. Add a name when a new snippet needs one (docs/contributing.md).
import type { McpServer } from '@modelcontextprotocol/server';
import type { Redis } from 'ioredis';
import type { FsmConfig, Fusion, FusionTool, Middleware, SyncPolicy, HandlerExtra, ToolRegistry } from 'mcp-fusion';

declare global {
  type Db = any;
  interface AppContext {
    db: Db;
    userId: string;
  }
  const db: Db;
  const f: Fusion<AppContext>;
  const registry: ToolRegistry<any>;
  const server: McpServer;
  const contextFactory: (extra: HandlerExtra) => AppContext;
  const createAppContext: (extra: HandlerExtra) => AppContext | Promise<AppContext>;
  const logger: { info(message: string): void; warn(message: string): void; error(message: string): void };
  const metrics: { increment(name: string, tags?: Record<string, string>): void };
  const config: FsmConfig;
  const policies: SyncPolicy[];
  const redis: Redis;
  const listTasks: FusionTool<AppContext>;
  const requireLogin: Middleware<AppContext>;
  const requireAdmin: Middleware<AppContext>;
  const refund: (input: { workspaceId: string; invoiceId: string }, ctx: AppContext) => unknown;
}
