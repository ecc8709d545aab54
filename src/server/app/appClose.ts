import { monotonicClock } from '../../_internal/clock.js';
import type { FusionRuntime } from '../../runtime/FusionRuntime.js';
import type { AppNotifications } from './appNotifications.js';
import type { DevConsoleTap } from '../console/devConsole.js';
import type { LegacySessions } from '../legacy/LegacySessions.js';
import type { ListenStreams } from '../listen/ListenStreams.js';
import type { ModernDispatcher } from '../modern/ModernDispatcher.js';
import type { HttpOptions } from '../types.js';

/** How long close() waits for the answers of calls the drain deadline cut. */
const ANSWER_MS = 1_000;

/** What an app closes, in this order after the drain. */
export interface ClosingParts {
  readonly runtime: FusionRuntime;
  readonly modern: ModernDispatcher;
  readonly listens: ListenStreams;
  readonly notifications: Pick<AppNotifications, 'stop'>;
  readonly devConsole: Pick<DevConsoleTap<unknown>, 'close'> | undefined;
  readonly legacy: LegacySessions;
  /** Stops hearing the session bus, when there is one. */
  readonly unsubscribe: (() => void) | undefined;
}

/** An app's shutdown: whether it is closing (the front answers 503 then), and {@link FusionApp.close}. */
export interface AppClose {
  closing(): boolean;
  close(how?: { drainMs?: number }): Promise<void>;
}

/**
 * The shutdown of an app: once `close` is called the front refuses new requests, running calls drain up to
 * `drainMs` (the option's, or the call's; default 10 s) on the runtime's clock, their answers get written, then
 * the session bus, listen streams, notifications, dev console, legacy sessions and the runtime close.
 */
export function appClose(options: Pick<HttpOptions<unknown>, 'drainMs' | 'clock'>, parts: ClosingParts): AppClose {
  // The drain's clock (the runtime's deadlines run on it): the `clock` option, else monotonic time.
  const clock = options.clock ?? monotonicClock;
  let closing = false;
  return {
    closing: () => closing,
    async close(how = {}) {
      closing = true;
      const { runtime, modern, listens, notifications, devConsole, legacy, unsubscribe } = parts;
      const drainMs = how.drainMs ?? options.drainMs ?? 10_000;
      const started = clock.now();
      await runtime.drain(drainMs);
      // The drained requests' answers are written once their responses end (their tickets end then): up to the
      // drain deadline, and ANSWER_MS past it when it cut handlers still running (their answers are still to come).
      const { tracker } = runtime;
      await tracker.idle(started + drainMs + (tracker.cut ? ANSWER_MS : 0) - clock.now());
      unsubscribe?.();
      // The SDK ends its listen streams gracefully (the empty listen result): clients then listen elsewhere.
      await modern.close();
      listens.closeAll();
      notifications.stop();
      await devConsole?.close();
      await legacy.closeAll();
      runtime.dispose();
    },
  };
}
