import { SessionDataError } from '../errors/SessionDataError.js';
import { DataBudget, type SessionDataLimits } from './DataBudget.js';
import type { SessionStore } from './SessionStore.js';
import type { SessionRecord } from './types.js';

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
  delete(name: string): Promise<void>;
}

/** Default cap of one key's data, as JSON (64 KiB). */
export const DEFAULT_SESSION_DATA_MAX_BYTES = 64 * 1024;

/** Writes in flight per backend and key: writes of one key in this process run one after another, so none is lost. */
const queues = new WeakMap<SessionDataBackend, Map<string, Promise<unknown>>>();

function serialized<T>(backend: SessionDataBackend, key: string, task: () => Promise<T>): Promise<T> {
  let byKey = queues.get(backend);
  if (byKey === undefined) queues.set(backend, (byKey = new Map()));
  const run = (byKey.get(key) ?? Promise.resolve()).then(task, task);
  const tail = run.catch(() => {});
  byKey.set(key, tail);
  void tail.then(() => {
    if (byKey.get(key) === tail) byKey.delete(key);
  });
  return run;
}

/**
 * The {@link SessionData} of `key` over a backend. Each write reads, changes and saves the whole object;
 * writes of one key are serialized in this process (concurrent calls never lose each other's values).
 * Across processes the last write of the whole object wins.
 */
export function sessionDataFor(backend: SessionDataBackend, key: string, options: SessionDataOptions = {}): SessionData {
  const { maxBytes = DEFAULT_SESSION_DATA_MAX_BYTES, owner, ttlMs } = options;
  const load = async (): Promise<Record<string, unknown>> => {
    try {
      return (await backend.load(key)) ?? {};
    } catch (error) {
      throw new SessionDataError('SESSION_DATA_STORE', `Session data of "${key}" could not be read (${describe(error)}); try again shortly.`, { key });
    }
  };
  const save = async (data: Record<string, unknown>, bytes?: number): Promise<void> => {
    try {
      await backend.save(key, data, owner === undefined ? undefined : { owner, bytes: bytes ?? jsonBytes(data), ttlMs });
    } catch (error) {
      throw new SessionDataError('SESSION_DATA_STORE', `Session data of "${key}" could not be saved (${describe(error)}); nothing was changed, try again shortly.`, { key });
    }
  };
  return Object.freeze({
    key,
    async get<T>(name: string): Promise<T | undefined> {
      return (await load())[name] as T | undefined;
    },
    set(name: string, value: unknown): Promise<void> {
      return serialized(backend, key, () => write(name, value));
    },
    delete(name: string): Promise<void> {
      return serialized(backend, key, async () => {
        const data = await load();
        if (!Object.hasOwn(data, name)) return;
        delete data[name];
        await save(data);
      });
    },
  });

  async function write(name: string, value: unknown): Promise<void> {
    let json: string | undefined;
    try {
      json = JSON.stringify(value);
    } catch (error) {
      throw new SessionDataError('SESSION_DATA_VALUE', `Session data "${name}" is not JSON (${describe(error)}); store plain objects, arrays, strings, numbers or booleans.`, { key, name });
    }
    if (json === undefined) throw new SessionDataError('SESSION_DATA_VALUE', `Session data "${name}" is not JSON (undefined or a function); use delete("${name}") to remove a value.`, { key, name });
    const data = { ...(await load()), [name]: JSON.parse(json) as unknown };
    const size = jsonBytes(data);
    if (size > maxBytes) {
      throw new SessionDataError('SESSION_DATA_TOO_LARGE', `Session data of "${key}" would be ${size} bytes with "${name}", over the cap of ${maxBytes}; store less (or a reference to data kept elsewhere), or delete values no longer needed.`, { key, name, size, maxBytes });
    }
    const over = owner === undefined ? undefined : backend.exceeds?.(key, owner, size);
    if (over !== undefined) {
      const text =
        over.budget === 'principal'
          ? `Session data "${name}" was not stored: your data would pass its budget of ${over.max} bytes for one caller (sessions and workflow instances together); delete values no longer needed or finish open workflows, then try again.`
          : `Session data "${name}" was not stored: the server holds its most session data (${over.max} bytes) for all clients; store less, or try again once older data expires.`;
      throw new SessionDataError('SESSION_DATA_BUDGET', text, { key, name, size, budget: over.budget, max: over.max });
    }
    await save(data, size);
  }
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
export function memorySessionData(maxKeys = 10_000, options: SessionDataBackendOptions = {}): SessionDataBackend & { readonly size: number } {
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
export function storeSessionData(store: SessionStore, ttlMs: number, options: SessionDataBackendOptions | (() => number) = {}): SessionDataBackend {
  const { now = Date.now, limits } = typeof options === 'function' ? { now: options } : options;
  const id = (key: string): string => `fusion-data:${key}`;
  const budget = new DataBudget(limits, now);
  return {
    async load(key) {
      return (await store.get(id(key)))?.data;
    },
    async save(key, data, write) {
      const at = now();
      const record: SessionRecord = { id: id(key), createdAt: at, lastAccessAt: at, phase: 'destroyed', initialized: false, protocolVersion: '', clientInfo: { name: 'fusion-data', version: '0' }, clientCapabilities: {}, data };
      const ttl = write?.ttlMs ?? ttlMs;
      await store.set(record, ttl);
      if (write !== undefined) budget.hold(key, write.owner, write.bytes, at + ttl);
    },
    async delete(key) {
      await store.delete(id(key));
      budget.release(key);
    },
    exceeds: (key, owner, bytes) => exceeded(budget, key, owner, bytes),
    dispose: () => budget.dispose(),
  };
}

function exceeded(budget: DataBudget, key: string, owner: string, bytes: number): { budget: 'principal' | 'total'; max: number } | undefined {
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
