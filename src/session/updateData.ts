import { systemClock, type Clock } from '../_internal/clock.js';
import { SessionDataError } from '../errors/SessionDataError.js';

/** A key's data and the version it was read at (0: no data yet). */
export interface VersionedData {
  readonly data: Record<string, unknown>;
  readonly version: number;
}

/** The compare-and-set primitives of a backend that several instances share. */
export interface VersionedBackend {
  loadVersioned(key: string): Promise<VersionedData>;
  saveIf(key: string, data: Record<string, unknown>, version: number): Promise<boolean>;
}

/** Default number of attempts of one write against concurrent writers on other instances. */
export const DEFAULT_SESSION_DATA_ATTEMPTS = 10;

/**
 * Reads `key` with its version, applies `change` (`undefined`: nothing to write) and saves the result only
 * over the version read; when another instance wrote in between, reads again and re-applies `change`, at most
 * `attempts` times in all, with a short random pause between attempts so that racing writers fall apart.
 * Fails with `SESSION_DATA_CONFLICT` when every attempt lost the race.
 */
export async function updateVersioned(
  backend: VersionedBackend,
  key: string,
  change: (data: Record<string, unknown>) => Record<string, unknown> | undefined,
  attempts = DEFAULT_SESSION_DATA_ATTEMPTS,
  clock: Pick<Clock, 'setTimeout'> = systemClock,
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const { data, version } = await backend.loadVersioned(key);
    const next = change(data);
    if (next === undefined || (await backend.saveIf(key, next, version))) return;
    if (attempt >= attempts) {
      throw new SessionDataError(
        'SESSION_DATA_CONFLICT',
        `Session data of "${key}" was not saved: another instance changed it during each of ${attempts} attempt${attempts === 1 ? '' : 's'}; nothing was changed by this call. Try again, or keep fewer concurrent writers on one key.`,
        { key, attempts },
      );
    }
    const pause = Math.random() * 2 * attempt;
    await new Promise((resolve) => clock.setTimeout(() => resolve(undefined), pause));
  }
}
