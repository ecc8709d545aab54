export { ByteLedger, DEFAULT_HELD_BYTES, isRefusal, resolveHeldBytes } from './ByteLedger.js';
export type { Hold, HoldOptions, ResolvedHeldBytesLimits } from './ByteLedger.js';
export { formatBytes, refusalText } from './ledgerTexts.js';
export { HELD_KINDS, SERVER_HOLDER } from './types.js';
export type { HeldByKind, HeldBytesLimits, HeldKind, Holder, LedgerBudget, LedgerRefusal } from './types.js';
