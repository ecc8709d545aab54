import type { ConsoleBounds, DevConsole } from '../../console/mountDevConsole.js';
import type { DevConsoleOptions } from '../../console/types.js';
import type { DebugEvent } from '../../tracing/types.js';
import type { ToolRuntime } from '../../runtime/tools/ToolRuntime.js';
import type { ToolRegistry } from '../../registry/ToolRegistry.js';
import type { ConsoleSkills } from '../../console/types.js';
import { debugSink } from '../../runtime/core/debugSink.js';
import { AttachError } from '../../errors/FusionError.js';
import type { HttpOptions } from '../types.js';
import { ByteLedger } from '../../ledger/ByteLedger.js';
import { systemClock, nowOption } from '../../_internal/clock.js';
import { resolveHttpLimits } from '../limits.js';

const KiB = 1024;

/** The `devConsole` option of an app: its hooks chained into the options, its page mounted once the app exists. */
export interface DevConsoleTap<Ctx> {
  readonly path: string;
  readonly token: string;
  /** True for the console's own paths (its page and everything under it). */
  owns(pathname: string): boolean;
  /** The app's options with the console's observers chained after the user's own. */
  readonly options: HttpOptions<Ctx>;
  /** Mounts the console (its module loads lazily) on the app's registry and toolRuntime. */
  attach(registry: ToolRegistry<Ctx>, toolRuntime: ToolRuntime<Ctx>, skills?: ConsoleSkills): void;
  serve(request: Request, peer: string | undefined): Promise<Response>;
  close(): Promise<void>;
}

/**
 * Taps an app's options for the dev console, or returns undefined when `devConsole` is off. The console's
 * module (page, hub, routes) is imported only here, lazily; events before it loads wait in a small queue.
 */
export function devConsoleTap<Ctx>(options: HttpOptions<Ctx>): DevConsoleTap<Ctx> | undefined {
  if (options.devConsole === undefined || options.devConsole === false) return undefined;
  const settings: DevConsoleOptions = options.devConsole === true ? {} : options.devConsole;
  const token = settings.token ?? randomToken();
  const path = settings.path ?? '/console';
  const bounds = consoleBounds(settings, resolveHttpLimits(options.limits).maxSessions);
  // The console charges the app's ledger: the one the runtime will own (made here when the options name none).
  const ledger =
    options.heldBytes instanceof ByteLedger
      ? options.heldBytes
      : new ByteLedger(options.heldBytes, options.clock ?? systemClock);
  const host = (options as { host?: string }).host;
  const hosts = [
    ...new Set([
      'localhost',
      '127.0.0.1',
      '[::1]',
      ...(options.allowedHosts ?? []),
      ...(host !== undefined && !WILDCARD.has(host) ? [host.includes(':') ? `[${host}]` : host] : []),
    ]),
  ].map((h) => h.toLowerCase());
  if (path === (options.path ?? '/mcp') || !path.startsWith('/')) {
    throw new AttachError(
      'DEV_CONSOLE_PATH',
      `devConsole.path "${path}" must start with "/" and differ from the MCP endpoint's path; choose another, e.g. "/console".`,
      { path },
    );
  }
  let live: DevConsole | undefined;
  const early: Array<(c: DevConsole) => void> = [];
  const tell = (deliver: (c: DevConsole) => void): void => {
    if (live !== undefined) return deliver(live);
    // Before the module loads, keep the latest events (as the ring buffer would).
    if (early.push(deliver) > EARLY) early.shift();
  };
  const user = debugSink(options.debug);
  let mounted: Promise<DevConsole> | undefined;
  return {
    path,
    token,
    owns: (pathname) => pathname === path || pathname.startsWith(`${path}/`),
    options: {
      ...options,
      heldBytes: ledger,
      debug: (event: DebugEvent) => {
        user?.(event);
        tell((c) => c.event(event));
      },
      onSessionEvent: (event) => {
        options.onSessionEvent?.(event);
        tell((c) => c.sessionEvent(event));
      },
      onWorkflowChange: (change) => {
        options.onWorkflowChange?.(change);
        tell((c) => c.workflowChange(change));
      },
    },
    attach(registry, toolRuntime, skills) {
      mounted = import('../../console/mountDevConsole.js').then(({ mountDevConsole }) => {
        live = mountDevConsole({
          token,
          path,
          bounds,
          ledger,
          hosts,
          bus: options.sessionBus ?? options.bus?.sessions,
          gate: options.fsm,
          now: nowOption(options.clock),
          tools: toolRuntime.surface.tools.map((t) => t.name),
          resources: registry.resources,
          visibleToolNames: (rctx) => toolRuntime.visibleToolNames(rctx),
          onInvalidation: (listener) => toolRuntime.onInvalidation(listener),
          skills: skills ?? (() => []),
        });
        for (const deliver of early.splice(0)) deliver(live);
        return live;
      });
    },
    async serve(request, peer) {
      return (await mounted!).routes.serve(request, peer);
    },
    async close() {
      (await mounted)?.close();
    },
  };
}

/** Events heard before the console's module loaded (a few milliseconds after the app is made), kept at most. */
const EARLY = 256;
/** Bind addresses that name no host a browser would send. */
const WILDCARD = new Set(['0.0.0.0', '::', '[::]']);

/** The console's bounds from its options, defaults filled in and checked. */
function consoleBounds(settings: DevConsoleOptions, maxSessions: number): ConsoleBounds {
  const bounds: ConsoleBounds = {
    maxEvents: settings.maxEvents ?? 2_000,
    maxBytes: settings.maxBytes ?? 4 * KiB * KiB,
    maxEventBytes: settings.maxEventBytes ?? 32 * KiB,
    snapshotBytes: settings.snapshotBytes ?? KiB * KiB,
    pageQueueBytes: settings.pageQueueBytes ?? 256 * KiB,
    maxSessions,
  };
  for (const [name, value] of Object.entries(bounds))
    if (!(Number.isInteger(value) && value > 0))
      throw new AttachError(
        'DEV_CONSOLE_BOUNDS',
        `devConsole.${name} must be a positive integer (got ${String(value)}); leave it out for the default.`,
        { [name]: value },
      );
  if (bounds.maxEventBytes > bounds.maxBytes || bounds.maxEventBytes < 1_024)
    throw new AttachError(
      'DEV_CONSOLE_BOUNDS',
      `devConsole.maxEventBytes (${bounds.maxEventBytes}) must be at least 1024 and at most devConsole.maxBytes (${bounds.maxBytes}).`,
      { maxEventBytes: bounds.maxEventBytes, maxBytes: bounds.maxBytes },
    );
  return bounds;
}

/** 24 random bytes, base64url (Web Crypto: the tap is in the root entry, which runs on Workers too). */
function randomToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return btoa(String.fromCharCode(...bytes))
    .replaceAll('+', '-')
    .replaceAll('/', '_')
    .replace(/=+$/, '');
}
