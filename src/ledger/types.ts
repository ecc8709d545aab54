/**
 * What kind of thing a held byte belongs to. Every store that keeps bytes a client sent (or made the server
 * produce for it) charges the ledger under one of these, so that `docs/security.md` can list them all and a
 * refusal can name what is full.
 */
export type HeldKind =
  | 'body' // a request body being read
  | 'listen' // an open `subscriptions/listen` request and its recording
  | 'event' // a resumable stream's stored events (memory or Redis)
  | 'task' // a task record, its arguments and its result
  | 'console' // a dev-console event
  | 'session' // a legacy session's kept `initialize` params
  | 'sessionData' // handler data (`extra.session`)
  | 'handle' // a workflow handle's data
  | 'requestState' // sealed request state
  | 'log'; // queued log output

/** Every {@link HeldKind}, in the order `docs/security.md` lists them. */
export const HELD_KINDS: readonly HeldKind[] = Object.freeze([
  'body',
  'listen',
  'event',
  'task',
  'console',
  'session',
  'sessionData',
  'handle',
  'requestState',
  'log',
]);

/**
 * Whose bytes they are: the principal (a verified user or client; anonymous: its network peer, `peer:<key>`)
 * and the network peer the request came from (the IPv4 address, the IPv6 /64, or the forwarded address
 * behind a trusted proxy; absent without HTTP). The server's own output (log lines) is held for
 * {@link SERVER_HOLDER}.
 */
export interface Holder {
  readonly principal: string;
  readonly peer?: string | undefined;
}

/** The holder of bytes the server holds for nobody in particular (queued log output): counted in the total only. */
export const SERVER_HOLDER: Holder = Object.freeze({ principal: '(server)' });

/**
 * The budgets of held bytes (the `heldBytes` option): every byte the server holds on a client's behalf counts
 * against its principal, its network peer and the process total, across every {@link HeldKind}.
 * @see docs/security.md#the-ledger
 */
export interface HeldBytesLimits {
  /** Bytes one principal may make this process hold, every kind together (8 MiB). Full: `429`. */
  perPrincipal?: number;
  /** Bytes one network peer may make this process hold, whoever it authenticates as (12 MiB). Full: `429`. */
  perPeer?: number;
  /** Bytes this process holds for every client together (64 MiB). Full: `503`. */
  total?: number;
  /** Seconds a refused client is told to wait before trying again (`Retry-After`) (5). */
  retryAfterSeconds?: number;
}

/** Which budget a refused hold would have exceeded. */
export type LedgerBudget = 'principal' | 'peer' | 'total';

/** A hold the ledger refused: what was asked, which budget is full, and how the client is answered. */
export interface LedgerRefusal {
  readonly kind: HeldKind;
  readonly budget: LedgerBudget;
  /** Bytes asked for. */
  readonly bytes: number;
  /** Bytes that budget holds now. */
  readonly held: number;
  /** The budget's cap. */
  readonly max: number;
  /** `429` for a principal's or peer's budget, `503` for the total. */
  readonly status: 429 | 503;
  readonly retryAfterSeconds: number;
  /** A sentence for the client: what is full and what to do. */
  readonly message: string;
}

/** Bytes held by one {@link Holder} (or everyone), per kind. */
export type HeldByKind = Readonly<Record<HeldKind, number>>;
