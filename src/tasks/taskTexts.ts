/** The texts clients read about tasks: what went wrong and what to do next. */
export const taskTexts = {
  notFound: (id: string) =>
    `Task "${id}" not found: it never existed, has expired, or belongs to another caller. Start the work again with tools/call.`,
  busyPrincipal: (tool: string, limit: number) =>
    `Cannot start "${tool}" as a task: you already have ${limit} active tasks (the limit). Wait for one to finish (tasks/get) or cancel one (tasks/cancel), then call again.`,
  busyProcess: (tool: string, limit: number) =>
    `Cannot start "${tool}" as a task: this server runs ${limit} tasks already (its limit). Try again shortly.`,
  storedFull: (tool: string, limit: number) =>
    `The result of "${tool}" was not kept: your stored task results would pass ${limit} bytes. Read (tasks/get) the results you need, let old tasks expire, then call again.`,
  resultTooLarge: (tool: string, bytes: number, limit: number) =>
    `The result of "${tool}" is ${bytes} bytes, over the ${limit}-byte limit a task may store; ask for less (a page, a summary) and call again.`,
  cancelled: (tool: string) => `The task running "${tool}" was cancelled.`,
  shutDown: (id: string, tool: string) =>
    `The server instance running task "${id}" (${tool}) shut down before it finished; call the tool again.`,
  requiresTask: (tool: string) =>
    `Tool "${tool}" runs only as a task, and this client did not declare task support (io.modelcontextprotocol/tasks); use a client that supports tasks.`,
  requiresLegacyTask: (tool: string) =>
    `Tool "${tool}" runs only as a task: call it with "task": {} in the tools/call params (MCP 2025-11-25 tasks).`,
} as const;
