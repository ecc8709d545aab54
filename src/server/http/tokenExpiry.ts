/**
 * When the verified token of a request expires, in epoch milliseconds (`AuthInfo.expiresAt` is in seconds),
 * or `undefined` without a token or an expiry. Streams opened with the token end then.
 */
export function tokenExpiryMs(authInfo: unknown): number | undefined {
  const expiresAt = (authInfo as { expiresAt?: unknown } | undefined)?.expiresAt;
  return typeof expiresAt === 'number' && Number.isFinite(expiresAt) ? expiresAt * 1000 : undefined;
}
