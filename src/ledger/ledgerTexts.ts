import type { HeldKind, LedgerBudget } from './types.js';

/** What each kind of held data is called in a refusal. */
const KIND_NAMES: Readonly<Record<HeldKind, string>> = {
  body: 'request body',
  listen: 'listen request',
  event: 'stored stream events',
  task: 'task',
  console: 'console event',
  session: 'session',
  sessionData: 'session data',
  handle: 'workflow handle data',
  requestState: 'request state',
  log: 'log output',
};

/** `1.5 MiB`, `12 KiB`, `300 B`: a byte count as people read it. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${trim(bytes / (1024 * 1024))} MiB`;
  if (bytes >= 1024) return `${trim(bytes / 1024)} KiB`;
  return `${bytes} B`;
}

function trim(value: number): string {
  return value >= 10 ? String(Math.round(value)) : value.toFixed(1).replace(/\.0$/, '');
}

/** The sentence a refused client reads: what did not fit, which budget is full, and what to do. */
export function refusalText(
  kind: HeldKind,
  budget: LedgerBudget,
  sizes: { bytes: number; held: number; max: number },
  retryAfterSeconds: number,
): string {
  const what = `this ${KIND_NAMES[kind]} (${formatBytes(sizes.bytes)})`;
  const wait = `retry after ${retryAfterSeconds} s`;
  if (budget === 'total')
    return (
      `The server holds all the client data it allows (${formatBytes(sizes.held)} of ${formatBytes(sizes.max)}), ` +
      `so ${what} was refused; ${wait}, or try another instance.`
    );
  const whose = budget === 'principal' ? 'for you' : 'for your network address';
  return (
    `The server already holds ${formatBytes(sizes.held)} ${whose} (the limit is ${formatBytes(sizes.max)}), ` +
    `so ${what} was refused. Let your open requests, streams and tasks finish or cancel some ` +
    `(large arguments and results count), then ${wait}.`
  );
}
