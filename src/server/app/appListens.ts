import { systemClock, nowOption } from '../../_internal/clock.js';
import type { ByteLedger } from '../../ledger/ByteLedger.js';
import type { AppEvents } from './appSessions.js';
import type { ResolvedHttpLimits } from '../limits.js';
import { ListenStreams } from '../listen/ListenStreams.js';
import type { Relisten } from '../middleware/listenResume.js';
import type { ModernDispatcher } from '../modern/ModernDispatcher.js';
import type { HttpOptions } from '../types.js';

/** The listen side of an app: its modern `subscriptions/listen` streams, and how a dropped one resumes. */
export interface AppListens {
  readonly listens: ListenStreams;
  /** Undefined without an event store: a stream then cannot resume by `Last-Event-ID`. */
  readonly resume: { readonly listens: ListenStreams; readonly relisten: Relisten } | undefined;
}

/**
 * The app's listen streams under its limits (per principal, in total, lifetime, filter sizes); with resumable
 * streams (`events`), their events are recorded and a stream resumed by `Last-Event-ID` listens again through
 * `modern` for `listenResumeMs` after it dropped. Each stream's whole request is held in `ledger` meanwhile.
 */
export function appListens(
  options: Pick<HttpOptions<unknown>, 'maxListenStreamsPerPrincipal' | 'clock' | 'listenResumeMs'>,
  limits: ResolvedHttpLimits,
  events: AppEvents | undefined,
  modern: ModernDispatcher,
  ledger?: ByteLedger,
): AppListens {
  const listens = new ListenStreams(
    {
      perPrincipal: options.maxListenStreamsPerPrincipal ?? 16,
      total: limits.maxListenStreams,
      maxLifetimeMs: limits.listenMaxLifetimeMs,
      maxFilterUris: limits.maxListenFilterUris,
      maxFilterBytes: limits.maxListenFilterBytes,
      maxFilterBytesTotal: limits.maxListenFilterBytesTotal,
    },
    nowOption(options.clock),
    events === undefined
      ? undefined
      : { ...events, lingerMs: options.listenResumeMs ?? 30_000, clock: options.clock ?? systemClock, ledger },
    ledger,
  );
  const relisten: Relisten = (authInfo) => (listen, body) =>
    modern.fetch(listen, { parsedBody: body, ...(authInfo !== undefined ? { authInfo: authInfo as never } : {}) });
  return { listens, resume: events === undefined ? undefined : { listens, relisten } };
}
