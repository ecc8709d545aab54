/** Writes in flight per backend and key: writes of one key in this process run one after another, so none is lost. */
const queues = new WeakMap<object, Map<string, Promise<unknown>>>();

/** Runs `task` after every earlier task of `key` on `backend` in this process has settled. */
export function serialized<T>(backend: object, key: string, task: () => Promise<T>): Promise<T> {
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
