/**
 * Where the once-only `requestState`s are remembered as used: one process's memory (the default,
 * {@link MemoryNonceStore}), or a store every instance shares (`RedisNonceStore` from `mcp-fusion/redis`), so that
 * a state accepted by one instance is refused by all others. Set it as the attach option `requestState.nonces`.
 * @see docs/scaling.md
 */
export interface NonceStore {
  /**
   * Marks `nonce` as used until `expiresAt` (epoch ms): true the first time, false when it was already used.
   * `owner` is a keyed tag of the caller (never its raw id), for stores that budget per caller. A store may
   * throw a `WireError` to refuse (a budget); any other error means it could not tell, and nothing runs.
   */
  claim(nonce: string, expiresAt: number, owner: string): Promise<boolean>;
}
