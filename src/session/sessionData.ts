import { SessionDataError } from '../errors/SessionDataError.js';
import type { SessionStore } from './SessionStore.js';
import type { SessionRecord } from './types.js';

/** Where per-session handler data lives, one JSON object per key (`s:<session>`, a workflow or a principal key). */
export interface SessionDataBackend {
  load(key: string): Promise<Record<string, unknown> | undefined>;
  save(key: string, data: Record<string, unknown>): Promise<void>;
  delete(key: string): Promise<void>;
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
export function sessionDataFor(backend: SessionDataBackend, key: string, maxBytes = DEFAULT_SESSION_DATA_MAX_BYTES): SessionData {
  const load = async (): Promise<Record<string, unknown>> => {
    try {
      return (await backend.load(key)) ?? {};
    } catch (error) {
      throw new SessionDataError('SESSION_DATA_STORE', `Session data of "${key}" could not be read (${describe(error)}); try again shortly.`, { key });
    }
  };
  const save = async (data: Record<string, unknown>): Promise<void> => {
    try {
      await backend.save(key, data);
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
    const size = new TextEncoder().encode(JSON.stringify(data)).length;
    if (size > maxBytes) {
      throw new SessionDataError('SESSION_DATA_TOO_LARGE', `Session data of "${key}" would be ${size} bytes with "${name}", over the cap of ${maxBytes}; store less (or a reference to data kept elsewhere), or delete values no longer needed.`, { key, name, size, maxBytes });
    }
    await save(data);
  }
}

/** In-process data (attachments without a session store); at most `maxKeys` keys, the oldest written dropped first. */
export function memorySessionData(maxKeys = 10_000): SessionDataBackend & { readonly size: number } {
  const map = new Map<string, string>();
  return {
    async load(key) {
      const json = map.get(key);
      return json === undefined ? undefined : (JSON.parse(json) as Record<string, unknown>);
    },
    async save(key, data) {
      map.delete(key);
      map.set(key, JSON.stringify(data));
      if (map.size > maxKeys) map.delete(map.keys().next().value!);
    },
    async delete(key) {
      map.delete(key);
    },
    get size() {
      return map.size;
    },
  };
}

/**
 * Data kept in a {@link SessionStore} (memory, Redis, …) as records of their own, apart from the session
 * records (so a session's lifecycle writes never overwrite them), living `ttlMs` from each write. Their
 * phase is `destroyed`, so no client can resume one as a session.
 */
export function storeSessionData(store: SessionStore, ttlMs: number, now: () => number = Date.now): SessionDataBackend {
  const id = (key: string): string => `fusion-data:${key}`;
  return {
    async load(key) {
      return (await store.get(id(key)))?.data;
    },
    async save(key, data) {
      const at = now();
      const record: SessionRecord = { id: id(key), createdAt: at, lastAccessAt: at, phase: 'destroyed', initialized: false, protocolVersion: '', clientInfo: { name: 'fusion-data', version: '0' }, clientCapabilities: {}, data };
      await store.set(record, ttlMs);
    },
    async delete(key) {
      await store.delete(id(key));
    },
  };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
