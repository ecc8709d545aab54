import type { BearerAuth } from '../../auth/BearerAuth.js';
import type { ByteLedger } from '../../ledger/ByteLedger.js';
import type { RequestTracing } from '../../tracing/RequestTracing.js';
import type { CallBudget } from '../http/CallBudget.js';
import type { DevConsoleTap } from '../console/devConsole.js';
import type { ListenStreams } from '../listen/ListenStreams.js';
import { allowedHost } from './allowedHost.js';
import { allowedOrigin } from './allowedOrigin.js';
import { authenticate } from './authenticate.js';
import { authMetadata } from './authMetadata.js';
import { callBudget } from './callBudget.js';
import { consoleRoute } from './consoleRoute.js';
import { corsAnswer } from './corsAnswer.js';
import { endpointPath } from './endpointPath.js';
import { jsonBody } from './jsonBody.js';
import { listenResume, type Relisten } from './listenResume.js';
import { malformedHost } from './malformedHost.js';
import { modernStreamless } from './modernStreamless.js';
import { preflight } from './preflight.js';
import { refuseProtoKeys } from './refuseProtoKeys.js';
import { scopeChallenge, type RequiredScopes } from './scopeChallenge.js';
import { shutdown } from './shutdown.js';
import type { HttpMiddleware } from '../httpMiddleware.js';
import { userMiddleware } from './userMiddleware.js';
import type { OperatorLog } from '../../logging/OperatorLog.js';

/** What the middlewares of the HTTP front are built from (the app's resolved options and parts). */
export interface FrontParts {
  readonly path: string;
  readonly hosts: string[];
  readonly origins: string[];
  readonly maxBodyBytes: number;
  /** The runtime's ledger of held bytes: bodies are counted in it as they are read. */
  readonly ledger?: ByteLedger | undefined;
  readonly auth: BearerAuth | undefined;
  readonly tracing: RequestTracing | undefined;
  readonly devConsole: Pick<DevConsoleTap<unknown>, 'owns' | 'serve'> | undefined;
  readonly closing: () => boolean;
  readonly requiredScopes: RequiredScopes;
  readonly calls: CallBudget;
  /** Resumable listen streams (`eventStore` on): the streams and how to listen again. */
  readonly resume: { readonly listens: ListenStreams; readonly relisten: Relisten } | undefined;
  /** The user's own middlewares (the `use` option), after the built-in ones, each behind an error boundary. */
  readonly use?: readonly HttpMiddleware[] | undefined;
  /** Where a user middleware's failure is logged. */
  readonly log: OperatorLog;
}

/**
 * The HTTP front, in order: the only place that knows it. A new concern is one file in this folder and one
 * entry here; `undefined` leaves a concern out (no auth, no dev console). The user's `use` middlewares come
 * after the built-in ones (so they see only requests the front admitted), then the eras.
 */
export function frontMiddleware(p: FrontParts): Array<HttpMiddleware | undefined> {
  return [
    malformedHost, // 400 before anything reads the URL built from the Host header
    p.devConsole && consoleRoute(p.devConsole), // its own page and checks (loopback, token)
    corsAnswer(p.origins), // CORS headers on every answer below, for an allowed browser origin
    shutdown(p.closing), // 503 while closing
    allowedHost(p.hosts), // 403 (DNS rebinding)
    allowedOrigin(p.origins), // 403
    p.auth && authMetadata(p.auth), // the Protected Resource Metadata document
    endpointPath(p.path), // 404
    preflight, // 204 for OPTIONS, without credentials
    p.auth && authenticate(p.auth, p.tracing), // 401 challenge, else authInfo
    jsonBody(p.maxBodyBytes, p.ledger), // 415, 413, 429/503 (ledger), 400 -32700, 405; the parsed body
    p.resume && listenResume(p.resume.listens, p.resume.relisten), // a listen stream resumed by Last-Event-ID
    modernStreamless, // 405 for a 2026-07-28 GET or DELETE
    refuseProtoKeys, // 400 -32602 for a __proto__ argument
    scopeChallenge(p.requiredScopes, p.tracing), // 403 insufficient_scope
    callBudget(p.calls), // 503 / 400 past limits.maxInFlightCalls
    ...(p.use ?? []).map((m, i) => userMiddleware(m, i, p.log)), // the user's, each behind an error boundary
  ];
}
