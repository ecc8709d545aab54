import type { Holder } from '../ledger/types.js';
import { SessionDataError } from '../errors/SessionDataError.js';
import { checkDataLimits } from './checkDataLimits.js';
import type { SessionDataBackend, SessionDataWrite } from './SessionDataBackend.js';
import { serialized } from './serializedWrites.js';
import { DEFAULT_SESSION_DATA_ATTEMPTS, updateVersioned, type VersionedBackend } from './updateData.js';

export type { VersionedData } from './updateData.js';
// The backends live beside this file; these names stay importable from here.
export type { SessionDataBackend, SessionDataBackendOptions, SessionDataWrite } from './SessionDataBackend.js';
export { memorySessionData } from './memorySessionData.js';
export { storeSessionData } from './storeSessionData.js';

/** Options of {@link sessionDataFor}. */
export interface SessionDataOptions {
  /** Cap of the key's data as JSON (64 KiB). */
  maxBytes?: number | undefined;
  /** Whom the data counts against (see {@link SessionDataWrite.owner}); without one, no budget applies. */
  owner?: string | undefined;
  /** Whose bytes the data is on the runtime's held-bytes ledger (see {@link SessionDataWrite.holder}). */
  holder?: Holder | undefined;
  ttlMs?: number | undefined;
  /** Attempts of one write against concurrent writers on other instances, on a versioned backend (10). */
  maxAttempts?: number | undefined;
}

/**
 * A handler's per-session data (`extra.session`), the seeds' `set_session_data` / `get_session_data`:
 * legacy calls share it per session, modern calls per workflow instance (bound tools) or per authenticated
 * principal. Values are JSON; the whole object is capped in size (64 KiB by default) and a write past the
 * cap is refused with a {@link SessionDataError}. It lives in the configured session store, so it survives
 * restarts and follows the session to other instances (e.g. `RedisSessionStore`).
 * @see docs/protocol-lifecycle.md
 */
export interface SessionData {
  /** What the data is keyed by: `s:<session id>`, `w:<machine>:<instance>` or a principal key (`u:…`, `c:…`). */
  readonly key: string;
  get<T = unknown>(name: string): Promise<T | undefined>;
  /** Stores a JSON value under `name`; refused past the size cap. */
  set(name: string, value: unknown): Promise<void>;
  /**
   * Read-modify-write of one value that loses no concurrent update, on this or another instance: `change` gets
   * the current value and returns the next (`undefined` deletes it); it may run more than once when another
   * writer came first, so keep it free of side effects. Resolves the value stored.
   * @example await extra.session.update<number>('visits', (n = 0) => n + 1);
   */
  update<T = unknown>(name: string, change: (current: T | undefined) => T | undefined): Promise<T | undefined>;
  delete(name: string): Promise<void>;
}

/** Default cap of one key's data, as JSON (64 KiB). */
export const DEFAULT_SESSION_DATA_MAX_BYTES = 64 * 1024;

/**
 * The {@link SessionData} of `key` over a backend. Each write reads, changes and saves the whole object;
 * writes of one key are serialized in this process (concurrent calls never lose each other's values). On a
 * backend with `loadVersioned` and `saveIf` (a shared session store), a write saves only over the version it
 * read and otherwise re-reads and re-applies itself (`maxAttempts`), so writes from other instances are kept
 * too; when every attempt loses, it fails with `SESSION_DATA_CONFLICT`. Elsewhere the last write wins.
 */
export function sessionDataFor(
  backend: SessionDataBackend,
  key: string,
  options: SessionDataOptions = {},
): SessionData {
  const {
    maxBytes = DEFAULT_SESSION_DATA_MAX_BYTES,
    owner,
    holder,
    ttlMs,
    maxAttempts = DEFAULT_SESSION_DATA_ATTEMPTS,
  } = options;
  const load = async (): Promise<Record<string, unknown>> => {
    try {
      return (await backend.load(key)) ?? {};
    } catch (error) {
      throw new SessionDataError(
        'SESSION_DATA_STORE',
        `Session data of "${key}" could not be read (${describe(error)}); try again shortly.`,
        { key },
      );
    }
  };
  const writeOf = (data: Record<string, unknown>): SessionDataWrite | undefined =>
    owner === undefined ? undefined : { owner, bytes: jsonBytes(data), ttlMs, holder };
  const save = async (data: Record<string, unknown>): Promise<void> => {
    try {
      await backend.save(key, data, writeOf(data));
    } catch (error) {
      throw new SessionDataError(
        'SESSION_DATA_STORE',
        `Session data of "${key}" could not be saved (${describe(error)}); nothing was changed, try again shortly.`,
        { key },
      );
    }
  };
  const limits = { key, maxBytes, owner, holder, backend };
  const versioned: VersionedBackend | undefined =
    backend.loadVersioned === undefined || backend.saveIf === undefined
      ? undefined
      : {
          loadVersioned: (k) => backend.loadVersioned!(k),
          saveIf: (k, data, v) => backend.saveIf!(k, data, v, writeOf(data)),
        };
  /** Applies `change` to the stored object and saves it (compare-and-set where the backend has it). */
  const mutate = (change: (data: Record<string, unknown>) => Record<string, unknown> | undefined): Promise<void> =>
    serialized(backend, key, async () => {
      if (versioned === undefined) {
        const next = change(await load());
        if (next !== undefined) await save(next);
        return;
      }
      try {
        await updateVersioned(versioned, key, change, maxAttempts);
      } catch (error) {
        if (error instanceof SessionDataError) throw error;
        throw new SessionDataError(
          'SESSION_DATA_STORE',
          `Session data of "${key}" could not be saved (${describe(error)}); nothing was changed, try again shortly.`,
          { key },
        );
      }
    });
  return Object.freeze({
    key,
    async get<T>(name: string): Promise<T | undefined> {
      return (await load())[name] as T | undefined;
    },
    async set(name: string, value: unknown): Promise<void> {
      const json = toJson(name, value);
      return mutate((data) => checkDataLimits({ ...data, [name]: JSON.parse(json) as unknown }, name, limits));
    },
    async update<T>(name: string, change: (current: T | undefined) => T | undefined): Promise<T | undefined> {
      let stored: T | undefined;
      await mutate((data) => {
        const next = change(data[name] as T | undefined);
        stored = undefined;
        if (next === undefined) return without(data, name);
        stored = JSON.parse(toJson(name, next)) as T;
        return checkDataLimits({ ...data, [name]: stored }, name, limits);
      });
      return stored;
    },
    delete(name: string): Promise<void> {
      return mutate((data) => without(data, name));
    },
  });

  function toJson(name: string, value: unknown): string {
    let json: string | undefined;
    try {
      json = JSON.stringify(value);
    } catch (error) {
      throw new SessionDataError(
        'SESSION_DATA_VALUE',
        `Session data "${name}" is not JSON (${describe(error)}); store plain objects, arrays, strings, numbers or booleans.`,
        { key, name },
      );
    }
    if (json === undefined)
      throw new SessionDataError(
        'SESSION_DATA_VALUE',
        `Session data "${name}" is not JSON (undefined or a function); use delete("${name}") to remove a value.`,
        { key, name },
      );
    return json;
  }
}

/** `data` without `name`, or `undefined` when it has no such value (nothing to write). */
function without(data: Record<string, unknown>, name: string): Record<string, unknown> | undefined {
  if (!Object.hasOwn(data, name)) return undefined;
  const rest = { ...data };
  delete rest[name];
  return rest;
}

function jsonBytes(data: unknown): number {
  return new TextEncoder().encode(JSON.stringify(data)).length;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
