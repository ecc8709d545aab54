import type { DevConsoleTap } from '../devConsole.js';
import { pathnameOf } from '../urlPath.js';
import type { Middleware } from './types.js';

/** The dev console's page and feeds, beside the endpoint (`devConsole` option): served as they are. */
export function consoleRoute(tap: Pick<DevConsoleTap<unknown>, 'owns' | 'serve'>): Middleware {
  return (c, next) => (tap.owns(pathnameOf(c.request.url)) ? tap.serve(c.request, c.peer) : next(c));
}
