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
  /**
   * The instance running a task died and its work is not run again: `repeatSafe` when the tool is declared safe
   * to repeat (its attempts ran out), `applying` when it died while applying its outcome (the transition).
   */
  lost: (id: string, tool: string, how: { attempt: number; repeatSafe: boolean; applying: boolean }) =>
    `The server instance running task "${id}" (${tool}, attempt ${how.attempt}) stopped before it finished. ` +
    (how.applying
      ? 'It stopped while applying its result, so the result may have taken effect: read the current state before calling again.'
      : how.repeatSafe
        ? `"${tool}" is safe to repeat: call it again.`
        : `Its work may be partly done and "${tool}" is not declared safe to repeat: check its effects before calling again.`),
  /**
   * Handing run `attempt` of a task to the worker queue failed (`reason`): nothing of that run started, and the
   * task ends failed.
   */
  notStarted: (id: string, tool: string, attempt: number, reason: string) =>
    `Task "${id}" (${tool}) was not started: handing ${attempt > 1 ? `attempt ${attempt}` : 'it'} to a worker failed (${reason}). ` +
    (attempt > 1
      ? `"${tool}" is declared safe to repeat: call it again.`
      : 'None of its work ran, so calling the tool again is safe.'),
  /** A legacy `elicit`/`sample` of a run away from the session that started the task (a worker, a takeover). */
  legacyAskAway: (id: string, tool: string, method: string) =>
    `Task "${id}" (${tool}) cannot send ${method} to its client: it runs away from the 2025-11-25 session that started it ` +
    '(on a task worker, or run again after its instance stopped), and only an instance holding that session can send it requests. ' +
    'Ask for the input before starting the task (in its arguments), run the tool in the front process (no task queue), ' +
    'or call it from a 2026-07-28 client, whose task input goes through tasks/update on any instance.',
  /** The status message of a task run again on another instance. */
  retried: (attempt: number, maxAttempts: number) =>
    `Attempt ${attempt} of ${maxAttempts}: the server instance running the previous attempt stopped; running again.`,
  requiresTask: (tool: string) =>
    `Tool "${tool}" runs only as a task, and this client did not declare task support (io.modelcontextprotocol/tasks); use a client that supports tasks.`,
  requiresLegacyTask: (tool: string) =>
    `Tool "${tool}" runs only as a task: call it with "task": {} in the tools/call params (MCP 2025-11-25 tasks).`,
} as const;
