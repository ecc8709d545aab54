/**
 * The one place mcp-fusion reads SDK internals, and only for a server the user brings
 * (`registry.attachToServer(server)`, or the `server` option): mcp-fusion's own servers (`FusionServer`)
 * are attached without them. Composing with a server's own tools, prompts and resources needs the request
 * handler it already installed for a method (to call it beside the registry's), and an `McpServer` must
 * install its handlers before the registry's, or its later `registerTool()` would refuse ("A request handler
 * for tools/list already exists"). Neither SDK line has a public API for either, so:
 *
 * - v2 `Server` (and the v2 `McpServer`'s `.server`): the protected accessor `_getRequestHandler(method)`;
 * - v1 `Server`: the private map `_requestHandlers` (also how a v1 server is told apart: `hasHandlerTable`);
 * - v1 and v2 `McpServer`: the private `setToolRequestHandlers()`, `setPromptRequestHandlers()`,
 *   `setResourceRequestHandlers()` and `setCompletionRequestHandler()` (idempotent in both lines).
 *
 * test/adapter/sdkHandlers.test.ts pins these against the installed SDKs and fails loudly when one moves;
 * the peer range of `@modelcontextprotocol/server` admits only releases that pass it (`npm run sdk:range`
 * runs it against the lowest and the newest release the range admits).
 */

/** A request handler as the SDK stores it: the raw request and the SDK's handler context. */
export type StoredHandler = (request: unknown, ctx: unknown) => Promise<unknown>;

/** The handler `low` (a low-level v1 or v2 `Server`) has installed for `method`, if any. */
export function installedHandler(low: object, method: string): StoredHandler | undefined {
  const server = low as {
    _getRequestHandler?: (m: string) => StoredHandler | undefined;
    _requestHandlers?: Map<string, StoredHandler>;
  };
  if (typeof server._getRequestHandler === 'function') return server._getRequestHandler(method);
  if (server._requestHandlers instanceof Map) return server._requestHandlers.get(method);
  throw new Error(
    'this SDK version keeps its request handlers where mcp-fusion cannot find them (no _getRequestHandler() or _requestHandlers); attach to a server of a supported SDK (@modelcontextprotocol/server 2.x or @modelcontextprotocol/sdk 1.x)',
  );
}

/**
 * True for a low-level server with `setRequestHandler()` and the private handler table `installedHandler`
 * reads in v1: once a v2 server is ruled out (sdkLine.ts), a v1 `Server`.
 */
export function hasHandlerTable(value: unknown): value is { setRequestHandler: (...args: never[]) => unknown } {
  const server = value as { setRequestHandler?: unknown; _requestHandlers?: unknown } | null;
  return typeof server?.setRequestHandler === 'function' && server._requestHandlers instanceof Map;
}

/** The kinds of entries an `McpServer` serves with handlers of its own. */
export type McpServerKind = 'tools' | 'prompts' | 'resources' | 'completions';

const INSTALLERS: Record<McpServerKind, string> = {
  tools: 'setToolRequestHandlers',
  prompts: 'setPromptRequestHandlers',
  resources: 'setResourceRequestHandlers',
  completions: 'setCompletionRequestHandler',
};

/** True for a high-level `McpServer` (v1 or v2): it has `registerTool()` and a low-level `.server`. */
export function isMcpServer(value: unknown): value is { server: object; registerTool: unknown } {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { registerTool?: unknown }).registerTool === 'function' &&
    typeof (value as { server?: unknown }).server === 'object'
  );
}

/**
 * Makes an `McpServer` install its own handlers for `kind` now (a no-op when it already has), so that
 * the registry's composition wraps them and the server's later `registerTool()` (etc.) keeps working.
 */
export function installMcpServerHandlers(mcp: object, kind: McpServerKind): void {
  const install = (mcp as Record<string, unknown>)[INSTALLERS[kind]];
  if (typeof install !== 'function') {
    throw new Error(
      `this McpServer has no ${INSTALLERS[kind]}() (an SDK change); attach to a server of a supported SDK (@modelcontextprotocol/server 2.x or @modelcontextprotocol/sdk 1.x)`,
    );
  }
  (install as () => void).call(mcp);
}

/**
 * The names an `McpServer` (v1 or v2) serves itself now: its `registerTool()`, `registerPrompt()` and
 * `registerResource()` entries (private `_registeredTools`, `_registeredPrompts`, `_registeredResources`,
 * `_registeredResourceTemplates`). Read at attach time to refuse a name both would serve.
 */
export function mcpServerNames(mcp: object): {
  tools: string[];
  prompts: string[];
  resources: string[];
  templates: string[];
} {
  const m = mcp as Record<string, unknown>;
  const table = (field: string): Record<string, unknown> => {
    const value = m[field];
    if (typeof value !== 'object' || value === null) {
      throw new Error(
        `this McpServer has no ${field} (an SDK change); attach to a server of a supported SDK (@modelcontextprotocol/server 2.x or @modelcontextprotocol/sdk 1.x)`,
      );
    }
    return value as Record<string, unknown>;
  };
  return {
    tools: Object.keys(table('_registeredTools')),
    prompts: Object.keys(table('_registeredPrompts')),
    resources: Object.keys(table('_registeredResources')),
    templates: Object.values(table('_registeredResourceTemplates')).map((t) =>
      String((t as { resourceTemplate?: { uriTemplate?: unknown } }).resourceTemplate?.uriTemplate),
    ),
  };
}
