import { SessionDataError } from '../errors/SessionDataError.js';
import { DataBudget, type SessionDataLimits } from './DataBudget.js';
import type { SessionStore } from './SessionStore.js';
import type { SessionRecord } from './types.js';
import { checkDataLimits } from './checkDataLimits.js';
import { serialized } from './serializedWrites.js';
import {
  DEFAULT_SESSION_DATA_ATTEMPTS,
  updateVersioned,
  type VersionedBackend,
  type VersionedData,
} from './updateData.js';

export type { VersionedData } from './updateData.js';

/** What a write tells its backend besides the data: whom it counts against, its size, and how long it may live. */
export interface SessionDataWrite {
  /** The budget owner: the principal, or the peer (else the session) of an anonymous caller. */
  readonly owner: string;
  /** The size of the data as JSON, in bytes. */
  readonly bytes: number;
  /** How long the data may live from now (a workflow instance's data: the workflow's idle TTL); the backend's own TTL otherwise. */
  readonly ttlMs?: number | undefined;
}

/** Where per-session handler data lives, one JSON object per key (`s:<session>`, a workflow or a principal key). */
export interface SessionDataBackend {
  load(key: string): Promise<Record<string, unknown> | undefined>;
  save(key: string, data: Record<string, unknown>, write?: SessionDataWrite): Promise<void>;
  delete(key: string): Promise<void>;
  /**
   * Optional, with `saveIf`, for backends that several instances share: the data with its version (0: none).
   * With both, a write saves only over the version it read and retries otherwise, so no instance's write is lost.
   */
  loadVersioned?(key: string): Promise<VersionedData>;
  /** Optional: saves `data` only when the stored version is still `version`; false when another writer came first. */
  saveIf?(key: string, data: Record<string, unknown>, version: number, write?: SessionDataWrite): Promise<boolean>;
  /**
   * Optional budget check before a write (the built-in backends count bytes per owner and in total): the
   * budget `key` holding `bytes` for `owner` would exceed, or `undefined` when it fits.
   */
  exceeds?(key: string, owner: string, bytes: number): { budget: 'principal' | 'total'; max: number } | undefined;
  /** Optional: stops the backend's timers when its app closes; it keeps working, and a later write restarts them. */
  dispose?(): void;
}

/** Options of {@link sessionDataFor}. */
export interface SessionDataOptions {
  /** Cap of the key's data as JSON (64 KiB). */
  maxBytes?: number | undefined;
  /** Whom the data counts against (see {@link SessionDataWrite.owner}); without one, no budget applies. */
  owner?: string | undefined;
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
    owner === undefined ? undefined : { owner, bytes: jsonBytes(data), ttlMs };
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
  const limits = { key, maxBytes, owner, backend };
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

/** Options of the built-in data backends. */
export interface SessionDataBackendOptions {
  /** Budgets of the data per principal and in total (see {@link SessionDataLimits}). */
  limits?: SessionDataLimits;
  /** The clock of expiries (default `Date.now`). */
  now?: () => number;
}

/**
 * In-process data (attachments without a session store): at most `maxKeys` keys, the oldest written dropped
 * first; budgeted per owner and in total; a key written with a TTL is dropped once it passes (by a timer).
 */
export function memorySessionData(
  maxKeys = 10_000,
  options: SessionDataBackendOptions = {},
): SessionDataBackend & { readonly size: number } {
  const map = new Map<string, { json: string; expiresAt: number }>();
  const now = options.now ?? Date.now;
  const budget = new DataBudget(options.limits, now, (key) => map.delete(key));
  return {
    async load(key) {
      const entry = map.get(key);
      if (entry === undefined) return undefined;
      if (entry.expiresAt <= now()) {
        map.delete(key);
        budget.release(key);
        return undefined;
      }
      return JSON.parse(entry.json) as Record<string, unknown>;
    },
    async save(key, data, write) {
      const expiresAt = write?.ttlMs === undefined ? Number.POSITIVE_INFINITY : now() + write.ttlMs;
      map.delete(key);
      map.set(key, { json: JSON.stringify(data), expiresAt });
      if (write !== undefined) budget.hold(key, write.owner, write.bytes, expiresAt);
      if (map.size > maxKeys) {
        const oldest = map.keys().next().value!;
        map.delete(oldest);
        budget.release(oldest);
      }
    },
    async delete(key) {
      map.delete(key);
      budget.release(key);
    },
    exceeds: (key, owner, bytes) => exceeded(budget, key, owner, bytes),
    get size() {
      return map.size;
    },
    dispose: () => budget.dispose(),
  };
}

/**
 * Data kept in a {@link SessionStore} (memory, Redis, …) as records of their own, apart from the session
 * records (so a session's lifecycle writes never overwrite them), living `ttlMs` from each write (a
 * workflow instance's data: the workflow's idle TTL). Their phase is `destroyed`, so no client can resume
 * one as a session. Budgeted per owner and in total, counted in this process.
 */
export function storeSessionData(
  store: SessionStore,
  ttlMs: number,
  options: SessionDataBackendOptions | (() => number) = {},
): SessionDataBackend {
  const { now = Date.now, limits } = typeof options === 'function' ? { now: options } : options;
  const id = (key: string): string => `fusion-data:${key}`;
  const budget = new DataBudget(limits, now);
  const recordOf = (key: string, data: Record<string, unknown>, version?: number): SessionRecord => {
    const at = now();
    return {
      id: id(key),
      createdAt: at,
      lastAccessAt: at,
      phase: 'destroyed',
      initialized: false,
      protocolVersion: '',
      clientInfo: { name: 'fusion-data', version: '0' },
      clientCapabilities: {},
      data,
      ...(version === undefined ? {} : { version }),
    };
  };
  const held = (key: string, write: SessionDataWrite | undefined, ttl: number): void => {
    if (write !== undefined) budget.hold(key, write.owner, write.bytes, now() + ttl);
  };
  const compareAndSet = store.compareAndSet?.bind(store);
  // With a store that compares and sets (memory, Redis), writes from several instances keep each other's values.
  const versioned: Pick<SessionDataBackend, 'loadVersioned' | 'saveIf'> =
    compareAndSet === undefined
      ? {}
      : {
          async loadVersioned(key) {
            const record = await store.get(id(key));
            return { data: record?.data ?? {}, version: record?.version ?? 0 };
          },
          async saveIf(key, data, version, write) {
            const ttl = write?.ttlMs ?? ttlMs;
            const saved = await compareAndSet(recordOf(key, data, version + 1), ttl, version);
            if (saved) held(key, write, ttl);
            return saved;
          },
        };
  return {
    async load(key) {
      return (await store.get(id(key)))?.data;
    },
    async save(key, data, write) {
      const ttl = write?.ttlMs ?? ttlMs;
      await store.set(recordOf(key, data), ttl);
      held(key, write, ttl);
    },
    ...versioned,
    async delete(key) {
      await store.delete(id(key));
      budget.release(key);
    },
    exceeds: (key, owner, bytes) => exceeded(budget, key, owner, bytes),
    dispose: () => budget.dispose(),
  };
}

function exceeded(
  budget: DataBudget,
  key: string,
  owner: string,
  bytes: number,
): { budget: 'principal' | 'total'; max: number } | undefined {
  const over = budget.check(key, owner, bytes);
  if (over === 'ok') return undefined;
  return { budget: over, max: over === 'principal' ? budget.maxBytesPerPrincipal : budget.maxBytesTotal };
}

function jsonBytes(data: unknown): number {
  return new TextEncoder().encode(JSON.stringify(data)).length;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
