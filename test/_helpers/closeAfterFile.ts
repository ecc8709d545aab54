/** Something a test helper opened for the current file, closed once its tests are done. */
interface Closable {
  disconnect(): void;
}

const opened: Closable[] = [];

/**
 * Closes `resource` after the current file's tests (test/setup.ts, which runs for every file, calls
 * {@link closeOpened} in its `afterAll`). A helper module cannot register that hook itself: in a shared
 * worker it is evaluated once, by the first file that imports it, so its hook would close only that
 * file's resources and leave every later file's open.
 */
export function closeAfterFile<T extends Closable>(resource: T): T {
  opened.push(resource);
  return resource;
}

/** Closes what {@link closeAfterFile} was given since the last call. */
export function closeOpened(): void {
  for (const resource of opened.splice(0)) resource.disconnect();
}
