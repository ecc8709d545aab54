import type { ClientAnswer, DebugEvent } from '../tracing/types.js';

/**
 * Options of the dev console (`devConsole` of `createFusionApp` / `startServer`, and `mcp-fusion dev`).
 * @see docs/console.md
 */
export interface DevConsoleOptions {
  /** The secret of the console's URL (`?token=…`); a random one per process by default. */
  token?: string;
  /** Where the page is served (default `/console`); it must differ from the MCP endpoint's path. */
  path?: string;
  /** Events kept for a page that opens later (the oldest go first; default 2,000). */
  maxEvents?: number;
  /**
   * Bytes of events kept, all together (default 4 MiB; the oldest go first). They are charged to the ledger
   * (`heldBytes`) as the server's own, kind `console`: when the server holds all it allows, the console keeps less.
   */
  maxBytes?: number;
  /** Bytes one event may keep (default 32 KiB): a larger one (huge arguments) is kept cut, its size named. */
  maxEventBytes?: number;
  /** Bytes sent to a page on (re)connect, the latest events first chosen (default 1 MiB), in pages of 64 KiB. */
  snapshotBytes?: number;
  /**
   * Bytes waiting for one page that does not read (default 256 KiB): past it, events are skipped and counted,
   * and the page gets a "N events skipped" marker once it reads again.
   */
  pageQueueBytes?: number;
  /** Hears the console's URL once the server listens (`startServer`); by default it is printed to stderr. */
  announce?: (url: string) => void;
}

/** A debug event made JSON-safe (an `error` event's error as its message and stack). */
export type ConsolePayload =
  | Exclude<DebugEvent, { type: 'error' } | { type: 'result' }>
  | { type: 'error'; message: string; error: { message: string; stack?: string } }
  | Extract<DebugEvent, { type: 'result' }>
  /** A legacy session's lifecycle step (created, active, idle, destroyed). */
  | { type: 'session'; sessionId: string; phase: string; reason: string }
  /** `notifications/resources/updated` sent for `uris`, and why. */
  | { type: 'resources_updated'; uris: readonly string[]; cause: string }
  /** What an invalidation reached: the tools whose names its patterns match, and the resources updated. */
  | {
      type: 'invalidation';
      patterns: readonly string[];
      causedBy: string;
      tools?: readonly string[];
      resources?: readonly string[];
    };

/**
 * One entry of the console's timeline: a payload, numbered, stamped, with the instance that saw it (an
 * envelope: the payload is kept as it came, never copied).
 */
export interface ConsoleEvent {
  seq: number;
  at: number;
  instance: string;
  event: ConsolePayload;
  /** Set when the event was larger than the console keeps: its size in bytes of JSON before it was cut. */
  cut?: { bytes: number };
  /** For a call in a legacy session: the tools the session listed right after it (what a transcript replays). */
  visible?: readonly string[];
}

/** A row of the console's session list: a legacy session or a modern workflow instance. */
export interface ConsoleSession {
  key: string;
  kind: 'session' | 'workflow';
  principal: string | undefined;
  scopes: readonly string[];
  firstSeen: number;
  lastSeen: number;
  /** The workflow state after the last transition seen (undefined: the initial state, or no gate). */
  state: string | undefined;
  phase: string | undefined;
  calls: number;
  /** The instance whose event about it came last (with a shared bus, the one serving it now). */
  instance: string;
}

/** One call of a recorded session, as {@link Transcript} replays it. */
export interface TranscriptStep {
  tool: string;
  args: Record<string, unknown>;
  /** True when a stage refused the call (the handler never ran). */
  refused: boolean;
  isError: boolean;
  /** The whole text the agent read; compared only for refusals and errors. */
  text: string;
  /** The State Sync blocks of the result (`[System: …]`), compared at every step. */
  stateSync: readonly string[];
  /** Names `tools/list` gave the session right after the call, when recorded. */
  visible?: readonly string[];
  /** What the client answered to the handler's elicitation and sampling requests, in order: the replay answers the same. */
  answers?: readonly ClientAnswer[];
  /** Set when the call ran as a task that the client cancelled: the replay cancels it too. */
  cancelled?: true;
}

/**
 * A session exported by the dev console as a test: replay it with `replayTranscript(registry, transcript)`
 * from `mcp-fusion/testing`.
 */
export interface Transcript {
  format: 'mcp-fusion/transcript@1';
  session: string;
  principal: string | undefined;
  scopes: readonly string[];
  recordedAt: string;
  steps: TranscriptStep[];
  /**
   * Set when the recording is not whole: why (calls pushed out of the console's buffer before the export, a
   * step the console kept cut), so that a replay refuses it.
   */
  incomplete?: string;
}

/** The skills the console shows (every one, with every tool named): each `SKILL.md` as served. */
export type ConsoleSkills = () => ReadonlyArray<{ name: string; description: string; markdown: string }>;
